// One interface to libgpiod for Flywheel's Swift code, whichever libgpiod the build finds:
// 1.6 (the v1 API of Debian 12 and Raspberry Pi OS bookworm) or 2.x (the v2 API of Debian 13 and
// current Raspberry Pi OS). gpiod_shim.c is compiled against the gpiod.h pkg-config names and
// picks its half from what that header declares; nothing is configured by hand.
//
// Every function that can fail returns NULL or -1 with errno set, and records the libgpiod
// function that failed (flywheel_gpiod_failed_function), so the caller's error names it.
#ifndef FLYWHEEL_GPIOD_H
#define FLYWHEEL_GPIOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// An open GPIO chip.
typedef struct flywheel_gpiod_chip flywheel_gpiod_chip;
/// Lines of one chip requested for both-edge events.
typedef struct flywheel_gpiod_request flywheel_gpiod_request;

/// One edge as the kernel reported it.
typedef struct {
    /// CLOCK_MONOTONIC, nanoseconds.
    uint64_t timestamp_ns;
    /// The line's position in the offsets the request was made with.
    uint32_t line_index;
    bool rising;
} flywheel_gpiod_edge;

/// The libgpiod API this was compiled against: 1 or 2.
int flywheel_gpiod_api(void);
/// libgpiod's version string, e.g. "1.6.3" or "2.2.1".
const char *flywheel_gpiod_version_string(void);
/// The libgpiod function whose failure the last failing call on this thread reported.
const char *flywheel_gpiod_failed_function(void);

/// Opens the chip at a path such as /dev/gpiochip0.
flywheel_gpiod_chip *flywheel_gpiod_chip_open(const char *path);
/// Opens a chip by path, name (gpiochip0), number (0) or label (pinctrl-bcm2711).
flywheel_gpiod_chip *flywheel_gpiod_chip_open_lookup(const char *spec);
void flywheel_gpiod_chip_close(flywheel_gpiod_chip *chip);
const char *flywheel_gpiod_chip_name(const flywheel_gpiod_chip *chip);
const char *flywheel_gpiod_chip_label(const flywheel_gpiod_chip *chip);
unsigned int flywheel_gpiod_chip_num_lines(const flywheel_gpiod_chip *chip);
/// The offset of the line named `name`, or -1.
int flywheel_gpiod_chip_find_line(flywheel_gpiod_chip *chip, const char *name);
/// 1 when some consumer has the line requested, 0 when not, -1 on failure.
int flywheel_gpiod_chip_line_is_used(flywheel_gpiod_chip *chip, unsigned int offset);

/// Requests `count` lines for both-edge events, timestamped with CLOCK_MONOTONIC, with a pull-up
/// when `pull_up` and the kernel supports bias (else without). The chip must outlive the request.
flywheel_gpiod_request *flywheel_gpiod_request_edges(
    flywheel_gpiod_chip *chip, const unsigned int *offsets, size_t count, const char *consumer, bool pull_up);
void flywheel_gpiod_request_release(flywheel_gpiod_request *request);
/// Whether the pull-up was applied.
bool flywheel_gpiod_request_pull_up(const flywheel_gpiod_request *request);
/// The event descriptors to poll: one per line (v1) or one for the request (v2).
size_t flywheel_gpiod_request_num_fds(const flywheel_gpiod_request *request);
int flywheel_gpiod_request_fd(const flywheel_gpiod_request *request, size_t index);
/// How many events the kernel queues for one descriptor before it drops some.
size_t flywheel_gpiod_request_buffer_events(const flywheel_gpiod_request *request);
/// The level of the line at `index`: 1 high, 0 low, -1 on failure.
int flywheel_gpiod_request_get_value(flywheel_gpiod_request *request, size_t index);
/// Reads up to `capacity` waiting events from descriptor `fd_index` into `edges`, without
/// blocking: the count read, or -1 (errno EAGAIN when none are waiting). Sets `*lost` when the
/// kernel dropped events: a gap in a line's sequence numbers (v2), a read that came back with the
/// kernel's whole buffer (v1: events may have been dropped).
ssize_t flywheel_gpiod_request_read_edges(
    flywheel_gpiod_request *request, size_t fd_index, flywheel_gpiod_edge *edges, size_t capacity, bool *lost);

#endif
