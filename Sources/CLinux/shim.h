/* Linux system calls that Swift's Glibc module does not export: epoll, timerfd, signalfd, inotify,
 * accept4, ppoll. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

/* accept4(2) is declared only under _GNU_SOURCE; this one declaration, in the kernel's own terms. */
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/* ppoll(2) likewise (_GNU_SOURCE): poll with a timeout in nanoseconds, for the bridges' loop. */
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

/* ALSA's control interface (<sound/asound.h>, <sound/tlv.h>): a mixer's elements through the ioctls
 * of /dev/snd/controlC*. Swift cannot import the _IOR/_IOWR request numbers nor reach into the
 * structures' unions, so they are spelled here. */
#include <sys/ioctl.h>
#include <sound/asound.h>
#include <sound/tlv.h>

static inline unsigned long flywheel_snd_ctl_card_info_request(void) { return SNDRV_CTL_IOCTL_CARD_INFO; }
static inline unsigned long flywheel_snd_ctl_elem_info_request(void) { return SNDRV_CTL_IOCTL_ELEM_INFO; }
static inline unsigned long flywheel_snd_ctl_elem_read_request(void) { return SNDRV_CTL_IOCTL_ELEM_READ; }
static inline unsigned long flywheel_snd_ctl_elem_write_request(void) { return SNDRV_CTL_IOCTL_ELEM_WRITE; }
static inline unsigned long flywheel_snd_ctl_subscribe_events_request(void) { return SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS; }
static inline unsigned long flywheel_snd_ctl_tlv_read_request(void) { return SNDRV_CTL_IOCTL_TLV_READ; }

/* A mixer element's id by its name (numid 0: the kernel finds it by interface, name and index). */
static inline void flywheel_snd_ctl_id_name(struct snd_ctl_elem_id *id, const char *name) {
    unsigned int i;
    id->numid = 0;
    id->iface = SNDRV_CTL_ELEM_IFACE_MIXER;
    id->device = 0;
    id->subdevice = 0;
    id->index = 0;
    for (i = 0; i < sizeof id->name; i++) id->name[i] = 0;
    for (i = 0; i + 1 < sizeof id->name && name[i]; i++) id->name[i] = (unsigned char)name[i];
}

/* An INTEGER or BOOLEAN element's range. */
static inline long flywheel_snd_ctl_info_min(const struct snd_ctl_elem_info *info) { return info->value.integer.min; }
static inline long flywheel_snd_ctl_info_max(const struct snd_ctl_elem_info *info) { return info->value.integer.max; }
static inline long flywheel_snd_ctl_info_step(const struct snd_ctl_elem_info *info) { return info->value.integer.step; }

/* Channel `index` (below 128) of an INTEGER or BOOLEAN element's value. */
static inline long flywheel_snd_ctl_value_get(const struct snd_ctl_elem_value *value, unsigned int index) {
    return index < 128 ? value->value.integer.value[index] : 0;
}
static inline void flywheel_snd_ctl_value_set(struct snd_ctl_elem_value *value, unsigned int index, long number) {
    if (index < 128) value->value.integer.value[index] = number;
}

/* struct snd_ctl_tlv with room for its TLV data (the kernel's ends in a flexible array). */
struct flywheel_snd_ctl_tlv {
    unsigned int numid;
    unsigned int length; /* bytes of tlv */
    unsigned int tlv[64];
};

/* What an element event (SNDRV_CTL_EVENT_ELEM) says: which element, and the SNDRV_CTL_EVENT_MASK_* bits. */
static inline unsigned int flywheel_snd_ctl_event_mask(const struct snd_ctl_event *event) { return event->data.elem.mask; }
static inline unsigned int flywheel_snd_ctl_event_numid(const struct snd_ctl_event *event) { return event->data.elem.id.numid; }
