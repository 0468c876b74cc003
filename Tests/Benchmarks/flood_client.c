/* A hostile neighbour for the fairness benchmark: connects to a flywheeld-protocol socket and
 * sends as fast as the socket takes, reading (and dropping) every answer so that it is never
 * disconnected for not reading. Runs until killed. Prints "flooding" once connected.
 *
 *   flood_client SOCKET blank|long|keys|tempo
 *
 *   blank  blank lines (keep-alives), 64 KiB per write
 *   long   64 KiB lines of JSON that is not a command (each is answered with an error)
 *   keys   64 KiB `ping` commands of 7,400 keys (each parsed whole, duplicates looked for, and
 *          answered with an error naming the first key it does not take)
 *   tempo  bursts of 64 `set tempo` commands (each answered, and broadcast to every client) */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: flood_client SOCKET blank|long|keys|tempo\n"); return 2; }
    static char out[1 << 17], in[1 << 16];
    size_t length = 0;
    if (!strcmp(argv[2], "blank")) {
        memset(out, '\n', length = 65536);
    } else if (!strcmp(argv[2], "long")) {
        out[0] = '"';
        memset(out + 1, 'x', 65534);
        out[65535] = '"';
        out[65536] = '\n';
        length = 65537;
    } else if (!strcmp(argv[2], "keys")) {
        /* Keys named in base 36 from 0 (A, B, ..., 9, BA, ...): 7,400 fit in 64 KiB, none is "cmd". */
        static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        length = (size_t)sprintf(out, "{\"cmd\":\"ping\"");
        for (int index = 0; index < 7400; index++) {
            out[length++] = ',';
            out[length++] = '"';
            int rest = index;
            do { out[length++] = digits[rest % 36]; rest /= 36; } while (rest > 0);
            length += (size_t)sprintf(out + length, "\":0");
        }
        out[length++] = '}';
        out[length++] = '\n';
        if (length > 65537) { fprintf(stderr, "flood_client: the keys line is %zu bytes\n", length); return 2; }
    } else if (!strcmp(argv[2], "tempo")) {
        for (int i = 0; i < 64; i++) length += (size_t)sprintf(out + length, "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":%d}\n", 90 + i % 2);
    } else {
        fprintf(stderr, "flood_client: unknown mode %s\n", argv[2]);
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); return 2; }
    printf("flooding\n");
    fflush(stdout);
    size_t offset = 0;
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
        if (poll(&p, 1, -1) < 0 && errno != EINTR) return 1;
        if (p.revents & POLLIN) {
            ssize_t n;
            while ((n = read(fd, in, sizeof in)) > 0) {}
            if (n == 0) { fprintf(stderr, "flood_client: the server closed the connection\n"); return 1; }
        }
        if (p.revents & (POLLERR | POLLHUP)) { fprintf(stderr, "flood_client: the connection failed\n"); return 1; }
        if (p.revents & POLLOUT) {
            ssize_t n = write(fd, out + offset, length - offset);
            if (n > 0) offset = (offset + (size_t)n) % length;
        }
    }
}
