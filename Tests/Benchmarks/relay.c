/* The latency floor for flywheeld's benchmarks: the least a relay can do. It listens on a Unix
 * socket, accepts N clients, then for every line read from standard input writes that line to each
 * client in turn. Usage: relay SOCKET N   (run by Tests/Benchmarks/daemon.py relay). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: relay SOCKET N\n"); return 2; }
    int n = atoi(argv[2]);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 512) != 0) { perror("bind"); return 1; }
    printf("ready\n");
    fflush(stdout);
    int *clients = calloc(n, sizeof *clients);
    for (int i = 0; i < n; i++) clients[i] = accept(listener, NULL, NULL);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        size_t length = strlen(line);
        for (int i = 0; i < n; i++) (void)!write(clients[i], line, length);
    }
    return 0;
}
