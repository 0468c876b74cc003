/* The latency harness: one process, one epoll set, CLIENTS connections to a flywheeld-protocol
 * socket. Each read() is timestamped with CLOCK_MONOTONIC as it returns; every measured line's
 * latency is that timestamp minus the line's own `time` field (the kernel-monotonic time of the
 * input that caused it, nine decimals). Measured lines are `tempo` events other than phase `set`
 * (a client's own command); every line is counted.
 *
 *   latency_client SOCKET CLIENTS EXPECT [--frames] [--hold] [--timeout SECONDS]
 *
 * EXPECT is how many measured lines each client waits for. --frames sends
 * {"cmd":"watch","frames":true} on each connection. --hold connects CLIENTS-1, waits until each
 * has its hello (and the answer to watch: the server is done with them), prints "held" and waits for a line on
 * standard input before connecting the last one (so a caller can mark the start of a window),
 * and after printing its figures keeps the connections open until standard input closes (so the
 * window can end before the server sees them go). Prints one JSON object: counts,
 * p50/p99/p99.9/max in microseconds, and the harness's own CPU time per line read (its overhead). Exits 1 when a client did not get EXPECT lines in time. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum { BUFFER = 1 << 17 };

struct client {
    int fd;
    size_t used;
    long measured, lines;
    int closed;
    char buffer[BUFFER];
};

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The `time` field of a line as nanoseconds: seconds '.' up to nine digits; -1 when absent. */
static int64_t line_time_ns(const char *line, size_t length) {
    const char *field = memmem(line, length, "\"time\":", 7);
    if (!field) return -1;
    const char *p = field + 7, *end = line + length;
    int64_t seconds = 0, fraction = 0;
    while (p < end && *p >= '0' && *p <= '9') seconds = seconds * 10 + (*p++ - '0');
    int digits = 0;
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') {
            if (digits < 9) { fraction = fraction * 10 + (*p - '0'); digits++; }
            p++;
        }
    }
    while (digits++ < 9) fraction *= 10;
    return seconds * 1000000000 + fraction;
}

static int connect_to(const char *path, int frames) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); exit(2); }
    if (frames) {
        static const char watch[] = "{\"cmd\":\"watch\",\"frames\":true}\n";
        if (write(fd, watch, sizeof watch - 1) != (ssize_t)(sizeof watch - 1)) { perror("write"); exit(2); }
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static int64_t *samples;
static long sample_count, sample_capacity, total_lines, frame_lines;

/* Reads what a client has and takes its complete lines, all stamped with the time read() returned. */
static void drain(struct client *c) {
    for (;;) {
        ssize_t count = read(c->fd, c->buffer + c->used, BUFFER - c->used);
        int64_t received = now_ns();
        if (count < 0 && errno == EINTR) continue;
        if (count < 0 && errno == EAGAIN) return;
        if (count <= 0) { c->closed = 1; return; }
        c->used += (size_t)count;
        char *start = c->buffer, *end = c->buffer + c->used, *newline;
        while ((newline = memchr(start, '\n', (size_t)(end - start)))) {
            size_t length = (size_t)(newline - start);
            c->lines++;
            total_lines++;
            if (memmem(start, length, "\"class\":\"frame\"", 15)) frame_lines++;
            if (memmem(start, length, "\"class\":\"tempo\"", 15) && !memmem(start, length, "\"phase\":\"set\"", 13)) {
                int64_t sent = line_time_ns(start, length);
                if (sent >= 0 && sample_count < sample_capacity) samples[sample_count++] = received - sent;
                c->measured++;
            }
            start = newline + 1;
        }
        c->used = (size_t)(end - start);
        memmove(c->buffer, start, c->used);
        if (c->used == BUFFER) { fprintf(stderr, "latency_client: a line over %d bytes\n", BUFFER); exit(2); }
    }
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double percentile_us(double p) {
    if (sample_count == 0) return 0;
    long index = (long)(p / 100 * (double)(sample_count - 1) + 0.5);
    return (double)samples[index] / 1000.0;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: latency_client SOCKET CLIENTS EXPECT [--frames] [--hold] [--timeout S]\n"); return 2; }
    const char *path = argv[1];
    int count = atoi(argv[2]), frames = 0, hold = 0;
    long expect = atol(argv[3]);
    double timeout = 120;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "--frames")) frames = 1;
        else if (!strcmp(argv[i], "--hold")) hold = 1;
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = atof(argv[++i]);
        else { fprintf(stderr, "latency_client: unknown argument %s\n", argv[i]); return 2; }
    }
    struct client *clients = calloc((size_t)count, sizeof *clients);
    sample_capacity = (long)count * expect + 1;
    samples = malloc((size_t)sample_capacity * sizeof *samples);
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (!clients || !samples || epoll < 0) { perror("latency_client"); return 2; }
    int connected = hold ? count - 1 : count;
    for (int i = 0; i < connected; i++) {
        clients[i].fd = connect_to(path, frames);
        struct epoll_event event = { .events = EPOLLIN, .data.ptr = &clients[i] };
        epoll_ctl(epoll, EPOLL_CTL_ADD, clients[i].fd, &event);
    }
    struct epoll_event ready[64];
    int64_t deadline = now_ns() + (int64_t)(timeout * 1e9);
    if (hold) {
        long greeting = frames ? 2 : 1; /* the hello, and the answer to watch */
        for (int waiting = connected; waiting > 0 && now_ns() < deadline;) {
            int n = epoll_wait(epoll, ready, 64, 1000);
            for (int i = 0; i < n; i++) {
                struct client *c = ready[i].data.ptr;
                long before = c->lines;
                drain(c);
                if (before < greeting && c->lines >= greeting) waiting--;
            }
        }
        printf("held\n");
        fflush(stdout);
        char go[16];
        if (!fgets(go, sizeof go, stdin)) return 2;
        clients[count - 1].fd = connect_to(path, frames);
        struct epoll_event event = { .events = EPOLLIN, .data.ptr = &clients[count - 1] };
        epoll_ctl(epoll, EPOLL_CTL_ADD, clients[count - 1].fd, &event);
        total_lines = frame_lines = 0;
        for (int i = 0; i < count; i++) clients[i].lines = 0;
        deadline = now_ns() + (int64_t)(timeout * 1e9);
    }
    struct rusage usage0, usage1;
    getrusage(RUSAGE_SELF, &usage0);
    int done = 0, closed = 0, finished = 0;  /* finished: done or closed */
    while (finished < count && now_ns() < deadline) {
        int n = epoll_wait(epoll, ready, 64, 1000);
        for (int i = 0; i < n; i++) {
            struct client *c = ready[i].data.ptr;
            int was_finished = c->measured >= expect || c->closed;
            drain(c);
            if (c->measured >= expect && !was_finished) done++;
            if (c->closed) {
                closed++;
                epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
            }
            if (!was_finished && (c->measured >= expect || c->closed)) finished++;
        }
    }
    getrusage(RUSAGE_SELF, &usage1);
    double cpu_us = (double)(usage1.ru_utime.tv_sec - usage0.ru_utime.tv_sec + usage1.ru_stime.tv_sec - usage0.ru_stime.tv_sec) * 1e6
        + (double)(usage1.ru_utime.tv_usec - usage0.ru_utime.tv_usec + usage1.ru_stime.tv_usec - usage0.ru_stime.tv_usec);
    qsort(samples, (size_t)sample_count, sizeof *samples, compare);
    printf("{\"clients\":%d,\"expected_per_client\":%ld,\"clients_complete\":%d,\"clients_closed\":%d,\"measured\":%ld,\"lines\":%ld,"
           "\"frames\":%ld,\"p50_us\":%.1f,\"p99_us\":%.1f,\"p999_us\":%.1f,\"max_us\":%.1f,\"harness_cpu_us_per_line\":%.2f}\n",
           count, expect, done, closed, sample_count, total_lines, frame_lines, percentile_us(50), percentile_us(99), percentile_us(99.9),
           sample_count ? (double)samples[sample_count - 1] / 1000.0 : 0.0, total_lines ? cpu_us / (double)total_lines : 0.0);
    fflush(stdout);
    if (hold) while (getchar() != EOF) {}
    return done == count ? 0 : 1;
}
