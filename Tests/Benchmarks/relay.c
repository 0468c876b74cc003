/* The floor for flywheeld's benchmarks: the least a server can do for the same job, in C. It
 * listens on a Unix socket, greets each client with a hello line, and once CLIENTS are connected
 * plays SCHEDULE in real time through one epoll loop and a timerfd (as flywheeld plays a scenario):
 * at each event's time it formats the event's line once, with `time` the event's scheduled
 * CLOCK_MONOTONIC time (as flywheeld stamps the input's time), and writes it to every client with
 * that client's own `seq`: one write() per delivered line. With --stamp-at-write, `time` is read
 * just before each write() instead, so a harness's figures are its own overhead (the kernel's
 * delivery and the harness's wake-up and parsing) with no timer in them.
 *
 *   relay SOCKET CLIENTS SCHEDULE [--stamp-at-write]
 *
 * SCHEDULE has one event a line: OFFSET_NS \t PREFIX \t MIDDLE \t SUFFIX; the line sent is
 * PREFIX seq MIDDLE time SUFFIX "\n" (the daemon's own lines for the same scenario, cut around their
 * seq and time). Prints "ready" once listening; after the last event it waits, as flywheeld does,
 * until it is terminated. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct event {
    int64_t offset;
    char *prefix, *middle, *suffix;
    size_t prefix_length;
};

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static size_t format_unsigned(char *out, uint64_t value) {
    char digits[24];
    size_t n = 0;
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value);
    for (size_t i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    return n;
}

static size_t format_time(char *out, int64_t ns) {
    size_t n = format_unsigned(out, (uint64_t)(ns / 1000000000));
    out[n++] = '.';
    int64_t fraction = ns % 1000000000;
    for (int i = 8; i >= 0; i--) { out[n + (size_t)i] = (char)('0' + fraction % 10); fraction /= 10; }
    return n + 9;
}

static struct event *load(const char *path, size_t *count) {
    FILE *file = fopen(path, "r");
    if (!file) { perror(path); exit(2); }
    size_t capacity = 1024;
    struct event *events = malloc(capacity * sizeof *events);
    char *line = NULL;
    size_t size = 0;
    *count = 0;
    while (getline(&line, &size, file) > 0) {
        line[strcspn(line, "\n")] = 0;
        char *fields[4], *rest = line;
        for (int i = 0; i < 4; i++) fields[i] = strsep(&rest, "\t");
        if (!fields[3]) { fprintf(stderr, "relay: a schedule line needs four tab-separated fields\n"); exit(2); }
        if (*count == capacity) events = realloc(events, (capacity *= 2) * sizeof *events);
        events[*count] = (struct event){ atoll(fields[0]), strdup(fields[1]), strdup(fields[2]), strdup(fields[3]), strlen(fields[1]) };
        (*count)++;
    }
    free(line);
    fclose(file);
    return events;
}

static void arm(int timer, int64_t at) {
    struct itimerspec when = { .it_value = { at / 1000000000, at % 1000000000 } };
    timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, NULL);
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: relay SOCKET CLIENTS SCHEDULE [--stamp-at-write]\n"); return 2; }
    int wanted = atoi(argv[2]), stamp_at_write = argc > 4 && !strcmp(argv[4], "--stamp-at-write");
    size_t count;
    struct event *events = load(argv[3], &count);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 512) != 0) { perror("bind"); return 1; }
    int epoll = epoll_create1(EPOLL_CLOEXEC), timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    struct epoll_event interest = { .events = EPOLLIN, .data.fd = listener };
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &interest);
    interest.data.fd = timer;
    epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &interest);
    printf("ready\n");
    fflush(stdout);

    int *clients = calloc((size_t)wanted, sizeof *clients);
    uint64_t *seq = calloc((size_t)wanted, sizeof *seq);
    int connected = 0;
    size_t next = 0;
    int64_t start = 0;
    char line[4096], tail[4096];
    struct epoll_event ready[8];
    while (next < count) {
        int n = epoll_wait(epoll, ready, 8, -1);
        for (int i = 0; i < n; i++) {
            if (ready[i].data.fd == listener) {
                int fd;
                while (connected < wanted && (fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
                    size_t length = (size_t)snprintf(line, sizeof line, "{\"class\":\"hello\",\"seq\":1,\"protocol\":1,\"time\":");
                    length += format_time(line + length, now_ns());
                    memcpy(line + length, "}\n", 2);
                    (void)!write(fd, line, length + 2);
                    seq[connected] = 1;
                    clients[connected++] = fd;
                    if (connected == wanted) arm(timer, (start = now_ns()) + events[0].offset);
                }
                continue;
            }
            uint64_t expirations;
            (void)!read(timer, &expirations, sizeof expirations);
            int64_t now = now_ns();
            for (; next < count && start + events[next].offset <= now; next++) {
                struct event *e = &events[next];
                size_t middle = strlen(e->middle), suffix = strlen(e->suffix), tail_length = middle;
                memcpy(tail, e->middle, middle);
                if (!stamp_at_write) tail_length += format_time(tail + tail_length, start + e->offset);
                for (int c = 0; c < wanted; c++) {
                    size_t length = e->prefix_length;
                    memcpy(line, e->prefix, length);
                    length += format_unsigned(line + length, ++seq[c]);
                    memcpy(line + length, tail, tail_length);
                    length += tail_length;
                    if (stamp_at_write) length += format_time(line + length, now_ns());
                    memcpy(line + length, e->suffix, suffix);
                    length += suffix;
                    line[length++] = '\n';
                    (void)!write(clients[c], line, length);
                }
            }
            if (next < count) arm(timer, start + events[next].offset);
        }
    }
    for (;;) pause();
}
