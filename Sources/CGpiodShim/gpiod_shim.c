// The two halves of flywheel_gpiod.h: libgpiod 1.6 (v1 API) and 2.x (v2 API). Which one is built
// is decided by the gpiod.h the compiler finds: only the v1 header defines
// GPIOD_LINE_BULK_MAX_LINES (the v2 API has no line bulks).
#include "flywheel_gpiod.h"

#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local const char *failed_function = "";

const char *flywheel_gpiod_failed_function(void) { return failed_function; }

// Records `function` as the one that failed and returns `result`, with errno left as it was.
#define FAILED(function, result) (failed_function = (function), (result))

#ifdef GPIOD_LINE_BULK_MAX_LINES
// ---- libgpiod 1.6: one request and one event descriptor per line --------------------------------

struct flywheel_gpiod_chip {
    struct gpiod_chip *chip;
};

struct flywheel_gpiod_request {
    size_t count;
    bool pull_up;
    struct gpiod_line *lines[];
};

// The v1 uAPI's kernel queue per line event descriptor (KFIFO of 16 in gpiolib-cdev).
enum { v1_buffer_events = 16 };

int flywheel_gpiod_api(void) { return 1; }
const char *flywheel_gpiod_version_string(void) { return gpiod_version_string(); }

static flywheel_gpiod_chip *wrap_chip(struct gpiod_chip *chip) {
    if (chip == NULL) return NULL;
    flywheel_gpiod_chip *wrapped = malloc(sizeof *wrapped);
    if (wrapped == NULL) {
        gpiod_chip_close(chip);
        return FAILED("malloc", NULL);
    }
    wrapped->chip = chip;
    return wrapped;
}

flywheel_gpiod_chip *flywheel_gpiod_chip_open(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    return chip ? wrap_chip(chip) : FAILED("gpiod_chip_open", NULL);
}

flywheel_gpiod_chip *flywheel_gpiod_chip_open_lookup(const char *spec) {
    struct gpiod_chip *chip = gpiod_chip_open_lookup(spec);
    return chip ? wrap_chip(chip) : FAILED("gpiod_chip_open_lookup", NULL);
}

void flywheel_gpiod_chip_close(flywheel_gpiod_chip *chip) {
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *flywheel_gpiod_chip_name(const flywheel_gpiod_chip *chip) { return gpiod_chip_name(chip->chip); }
const char *flywheel_gpiod_chip_label(const flywheel_gpiod_chip *chip) { return gpiod_chip_label(chip->chip); }
unsigned int flywheel_gpiod_chip_num_lines(const flywheel_gpiod_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

int flywheel_gpiod_chip_find_line(flywheel_gpiod_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    return line ? (int)gpiod_line_offset(line) : FAILED("gpiod_chip_find_line", -1);
}

int flywheel_gpiod_chip_line_is_used(flywheel_gpiod_chip *chip, unsigned int offset) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL) return FAILED("gpiod_chip_get_line", -1);
    if (gpiod_line_update(line) < 0) return FAILED("gpiod_line_update", -1);
    return gpiod_line_is_used(line) ? 1 : 0;
}

flywheel_gpiod_request *flywheel_gpiod_request_edges(
    flywheel_gpiod_chip *chip, const unsigned int *offsets, size_t count, const char *consumer, bool pull_up) {
    flywheel_gpiod_request *request = calloc(1, sizeof *request + count * sizeof request->lines[0]);
    if (request == NULL) return FAILED("calloc", NULL);
    request->pull_up = pull_up;
    for (size_t index = 0; index < count; index++) {
        struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offsets[index]);
        if (line == NULL) {
            failed_function = "gpiod_chip_get_line";
            goto fail;
        }
        int rc = gpiod_line_request_both_edges_events_flags(
            line, consumer, request->pull_up ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP : 0);
        if (rc < 0 && request->pull_up && (errno == EINVAL || errno == EOPNOTSUPP)) {
            request->pull_up = false;  // a kernel without bias support: rely on external pull-ups
            rc = gpiod_line_request_both_edges_events(line, consumer);
        }
        if (rc < 0) {
            failed_function = "gpiod_line_request_both_edges_events";
            goto fail;
        }
        request->lines[request->count++] = line;
    }
    return request;
fail: {
    int error = errno;
    flywheel_gpiod_request_release(request);
    errno = error;
    return NULL;
}
}

void flywheel_gpiod_request_release(flywheel_gpiod_request *request) {
    for (size_t index = 0; index < request->count; index++) gpiod_line_release(request->lines[index]);
    free(request);
}

bool flywheel_gpiod_request_pull_up(const flywheel_gpiod_request *request) { return request->pull_up; }
size_t flywheel_gpiod_request_num_fds(const flywheel_gpiod_request *request) { return request->count; }
size_t flywheel_gpiod_request_buffer_events(const flywheel_gpiod_request *request) {
    (void)request;
    return v1_buffer_events;
}

int flywheel_gpiod_request_fd(const flywheel_gpiod_request *request, size_t index) {
    int fd = gpiod_line_event_get_fd(request->lines[index]);
    return fd >= 0 ? fd : FAILED("gpiod_line_event_get_fd", -1);
}

int flywheel_gpiod_request_get_value(flywheel_gpiod_request *request, size_t index) {
    int value = gpiod_line_get_value(request->lines[index]);
    return value >= 0 ? value : FAILED("gpiod_line_get_value", -1);
}

ssize_t flywheel_gpiod_request_read_edges(
    flywheel_gpiod_request *request, size_t fd_index, flywheel_gpiod_edge *edges, size_t capacity, bool *lost) {
    struct gpiod_line_event events[v1_buffer_events];
    unsigned int wanted = capacity < v1_buffer_events ? (unsigned int)capacity : v1_buffer_events;
    int count = gpiod_line_event_read_multiple(request->lines[fd_index], events, wanted);
    if (count < 0) return FAILED("gpiod_line_event_read_multiple", -1);
    for (int index = 0; index < count; index++) {
        edges[index] = (flywheel_gpiod_edge){
            .timestamp_ns = (uint64_t)events[index].ts.tv_sec * 1000000000u + (uint64_t)events[index].ts.tv_nsec,
            .line_index = (uint32_t)fd_index,
            .rising = events[index].event_type == GPIOD_LINE_EVENT_RISING_EDGE,
        };
    }
    if (count == v1_buffer_events) *lost = true;
    return count;
}

#else
// ---- libgpiod 2.x: one request for all lines, one event descriptor, sequence numbers -------------

struct flywheel_gpiod_chip {
    struct gpiod_chip *chip;
    char *name;
    char *label;
    unsigned int num_lines;
};

struct flywheel_gpiod_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    bool pull_up;
    size_t count;
    unsigned int *offsets;
    // The last sequence number each line's events carried (0 before the first, which is 1).
    unsigned long *line_seqnos;
};

// The kernel's largest edge-event queue for a request (GPIO_V2_LINES_MAX * 16 in gpiolib-cdev);
// the v1 uAPI kept 16 per line.
enum { v2_buffer_events = 1024 };

int flywheel_gpiod_api(void) { return 2; }
const char *flywheel_gpiod_version_string(void) { return gpiod_api_version(); }

static flywheel_gpiod_chip *wrap_chip(struct gpiod_chip *chip) {
    if (chip == NULL) return NULL;
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (info == NULL) {
        int error = errno;
        gpiod_chip_close(chip);
        errno = error;
        return FAILED("gpiod_chip_get_info", NULL);
    }
    flywheel_gpiod_chip *wrapped = calloc(1, sizeof *wrapped);
    if (wrapped != NULL) {
        wrapped->chip = chip;
        wrapped->name = strdup(gpiod_chip_info_get_name(info));
        wrapped->label = strdup(gpiod_chip_info_get_label(info));
        wrapped->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    }
    gpiod_chip_info_free(info);
    if (wrapped == NULL || wrapped->name == NULL || wrapped->label == NULL) {
        if (wrapped != NULL) flywheel_gpiod_chip_close(wrapped);
        else gpiod_chip_close(chip);
        errno = ENOMEM;
        return FAILED("strdup", NULL);
    }
    return wrapped;
}

flywheel_gpiod_chip *flywheel_gpiod_chip_open(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    return chip ? wrap_chip(chip) : FAILED("gpiod_chip_open", NULL);
}

static bool all_digits(const char *text) {
    if (*text == '\0') return false;
    for (; *text; text++) {
        if (*text < '0' || *text > '9') return false;
    }
    return true;
}

// As libgpiod 1.6's gpiod_chip_open_lookup: a path, a name under /dev, a number, then a label.
flywheel_gpiod_chip *flywheel_gpiod_chip_open_lookup(const char *spec) {
    char path[4096];
    if (strchr(spec, '/') != NULL) return flywheel_gpiod_chip_open(spec);
    if (all_digits(spec)) {
        snprintf(path, sizeof path, "/dev/gpiochip%s", spec);
        return flywheel_gpiod_chip_open(path);
    }
    snprintf(path, sizeof path, "/dev/%s", spec);
    if (gpiod_is_gpiochip_device(path)) return flywheel_gpiod_chip_open(path);
    for (unsigned int number = 0; number < 1024; number++) {
        snprintf(path, sizeof path, "/dev/gpiochip%u", number);
        if (!gpiod_is_gpiochip_device(path)) {
            if (number >= 64) break;  // chips are numbered from 0, with gaps after removals
            continue;
        }
        flywheel_gpiod_chip *chip = flywheel_gpiod_chip_open(path);
        if (chip == NULL) continue;
        if (strcmp(chip->label, spec) == 0) return chip;
        flywheel_gpiod_chip_close(chip);
    }
    errno = ENOENT;
    return FAILED("gpiod_chip_open", NULL);
}

void flywheel_gpiod_chip_close(flywheel_gpiod_chip *chip) {
    gpiod_chip_close(chip->chip);
    free(chip->name);
    free(chip->label);
    free(chip);
}

const char *flywheel_gpiod_chip_name(const flywheel_gpiod_chip *chip) { return chip->name; }
const char *flywheel_gpiod_chip_label(const flywheel_gpiod_chip *chip) { return chip->label; }
unsigned int flywheel_gpiod_chip_num_lines(const flywheel_gpiod_chip *chip) { return chip->num_lines; }

int flywheel_gpiod_chip_find_line(flywheel_gpiod_chip *chip, const char *name) {
    int offset = gpiod_chip_get_line_offset_from_name(chip->chip, name);
    return offset >= 0 ? offset : FAILED("gpiod_chip_get_line_offset_from_name", -1);
}

int flywheel_gpiod_chip_line_is_used(flywheel_gpiod_chip *chip, unsigned int offset) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (info == NULL) return FAILED("gpiod_chip_get_line_info", -1);
    bool used = gpiod_line_info_is_used(info);
    gpiod_line_info_free(info);
    return used ? 1 : 0;
}

// Edges on both flanks, timestamped by CLOCK_MONOTONIC (the clock the daemon's deadlines use),
// no kernel debounce: the button's debounce stays in software, where an edge keeps the time it
// happened (the kernel's debounce stamps an edge when the line has been stable for the period).
static struct gpiod_line_request *request_lines(
    flywheel_gpiod_chip *chip, const unsigned int *offsets, size_t count, const char *consumer, bool pull_up) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    struct gpiod_line_request *request = NULL;
    if (settings == NULL || line_config == NULL || request_config == NULL) {
        failed_function = "gpiod_line_settings_new";
    } else if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0 ||
               gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) < 0 ||
               gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) < 0 ||
               gpiod_line_settings_set_bias(settings, pull_up ? GPIOD_LINE_BIAS_PULL_UP : GPIOD_LINE_BIAS_AS_IS) < 0) {
        failed_function = "gpiod_line_settings_set";
    } else if (gpiod_line_config_add_line_settings(line_config, offsets, count, settings) < 0) {
        failed_function = "gpiod_line_config_add_line_settings";
    } else {
        gpiod_request_config_set_consumer(request_config, consumer);
        gpiod_request_config_set_event_buffer_size(request_config, v2_buffer_events);
        request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
        if (request == NULL) failed_function = "gpiod_chip_request_lines";
    }
    int error = errno;
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    errno = error;
    return request;
}

flywheel_gpiod_request *flywheel_gpiod_request_edges(
    flywheel_gpiod_chip *chip, const unsigned int *offsets, size_t count, const char *consumer, bool pull_up) {
    flywheel_gpiod_request *request = calloc(1, sizeof *request);
    if (request == NULL) return FAILED("calloc", NULL);
    request->count = count;
    request->offsets = calloc(count, sizeof request->offsets[0]);
    request->line_seqnos = calloc(count, sizeof request->line_seqnos[0]);
    request->events = gpiod_edge_event_buffer_new(v2_buffer_events);
    if (request->offsets == NULL || request->line_seqnos == NULL || request->events == NULL) {
        flywheel_gpiod_request_release(request);
        errno = ENOMEM;
        return FAILED("gpiod_edge_event_buffer_new", NULL);
    }
    memcpy(request->offsets, offsets, count * sizeof offsets[0]);
    request->pull_up = pull_up;
    request->request = request_lines(chip, offsets, count, consumer, pull_up);
    if (request->request == NULL && pull_up && (errno == EINVAL || errno == EOPNOTSUPP)) {
        request->pull_up = false;  // a kernel without bias support: rely on external pull-ups
        request->request = request_lines(chip, offsets, count, consumer, false);
    }
    if (request->request == NULL) {
        int error = errno;
        flywheel_gpiod_request_release(request);
        errno = error;
        return NULL;
    }
    return request;
}

void flywheel_gpiod_request_release(flywheel_gpiod_request *request) {
    if (request->request != NULL) gpiod_line_request_release(request->request);
    if (request->events != NULL) gpiod_edge_event_buffer_free(request->events);
    free(request->offsets);
    free(request->line_seqnos);
    free(request);
}

bool flywheel_gpiod_request_pull_up(const flywheel_gpiod_request *request) { return request->pull_up; }
size_t flywheel_gpiod_request_num_fds(const flywheel_gpiod_request *request) {
    (void)request;
    return 1;
}
size_t flywheel_gpiod_request_buffer_events(const flywheel_gpiod_request *request) {
    (void)request;
    return v2_buffer_events;
}

int flywheel_gpiod_request_fd(const flywheel_gpiod_request *request, size_t index) {
    (void)index;
    int fd = gpiod_line_request_get_fd(request->request);
    return fd >= 0 ? fd : FAILED("gpiod_line_request_get_fd", -1);
}

int flywheel_gpiod_request_get_value(flywheel_gpiod_request *request, size_t index) {
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, request->offsets[index]);
    if (value == GPIOD_LINE_VALUE_ERROR) return FAILED("gpiod_line_request_get_value", -1);
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

ssize_t flywheel_gpiod_request_read_edges(
    flywheel_gpiod_request *request, size_t fd_index, flywheel_gpiod_edge *edges, size_t capacity, bool *lost) {
    (void)fd_index;
    size_t wanted = capacity < v2_buffer_events ? capacity : v2_buffer_events;
    int count = gpiod_line_request_read_edge_events(request->request, request->events, wanted);
    if (count < 0) return FAILED("gpiod_line_request_read_edge_events", -1);
    ssize_t written = 0;
    for (int index = 0; index < count; index++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->events, (unsigned long)index);
        unsigned int offset = gpiod_edge_event_get_line_offset(event);
        uint32_t line = 0;
        while (line < request->count && request->offsets[line] != offset) line++;
        if (line == request->count) continue;  // not a line of this request: the kernel sends none
        unsigned long seqno = gpiod_edge_event_get_line_seqno(event);
        if (seqno != request->line_seqnos[line] + 1) *lost = true;
        request->line_seqnos[line] = seqno;
        edges[written++] = (flywheel_gpiod_edge){
            .timestamp_ns = gpiod_edge_event_get_timestamp_ns(event),
            .line_index = line,
            .rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE,
        };
    }
    return written;
}

#endif
