/* The MIDI clock benchmark's receiver (midi_clock.sh): reads a FIFO or raw MIDI port that
 * `flywheel midi --clock` writes, stamps every read with CLOCK_MONOTONIC, and once SECONDS have
 * passed since the first clock tick (F8) prints one JSON object: the tick count, the mean interval
 * against the ideal at BPM (drift, in ppm), and percentiles of the jitter, each tick's interval from
 * the previous one minus the ideal period (absolute), and of the lateness, each tick's time after
 * its place on the ideal grid anchored at the earliest tick (t_k - t_0 - k·period, less its minimum).
 *
 * Usage: midi_clock_reader PATH BPM SECONDS */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double *sorted, size_t count, double p) {
    size_t index = (size_t)ceil(count * p);
    return sorted[index == 0 ? 0 : (index > count ? count : index) - 1];
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s PATH BPM SECONDS\n", argv[0]);
        return 2;
    }
    double bpm = atof(argv[2]), seconds = atof(argv[3]), period = 60.0 / (bpm * 24);
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    size_t capacity = (size_t)(seconds / period * 1.5) + 1024, count = 0;
    double *ticks = malloc(capacity * sizeof *ticks);
    unsigned char buffer[512];
    while (count < capacity && (count == 0 || ticks[count - 1] - ticks[0] < seconds)) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        double t = now();
        for (ssize_t i = 0; i < n && count < capacity; i++)
            if (buffer[i] == 0xF8) ticks[count++] = t;
    }
    if (count < 3) {
        fprintf(stderr, "%s: %zu clock ticks\n", argv[1], count);
        return 1;
    }
    size_t intervals = count - 1;
    double *jitter = malloc(intervals * sizeof *jitter), *late = malloc(count * sizeof *late), least = 0;
    for (size_t k = 0; k < intervals; k++) jitter[k] = fabs(ticks[k + 1] - ticks[k] - period);
    for (size_t k = 0; k < count; k++) {
        late[k] = ticks[k] - ticks[0] - k * period;
        if (late[k] < least) least = late[k];
    }
    for (size_t k = 0; k < count; k++) late[k] -= least;
    qsort(jitter, intervals, sizeof *jitter, ascending);
    qsort(late, count, sizeof *late, ascending);
    double mean = (ticks[count - 1] - ticks[0]) / intervals;
    printf("{\"bpm\": %g, \"ticks\": %zu, \"seconds\": %.3f, \"mean_interval_ms\": %.6f, \"ideal_interval_ms\": %.6f, "
           "\"drift_ppm\": %.1f, \"jitter_p50_ms\": %.4f, \"jitter_p99_ms\": %.4f, \"jitter_max_ms\": %.4f, "
           "\"late_p50_ms\": %.4f, \"late_p99_ms\": %.4f, \"late_max_ms\": %.4f}\n",
           bpm, count, ticks[count - 1] - ticks[0], mean * 1e3, period * 1e3, (mean / period - 1) * 1e6,
           percentile(jitter, intervals, 0.5) * 1e3, percentile(jitter, intervals, 0.99) * 1e3, jitter[intervals - 1] * 1e3,
           percentile(late, count, 0.5) * 1e3, percentile(late, count, 0.99) * 1e3, late[count - 1] * 1e3);
    return 0;
}
