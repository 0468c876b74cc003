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
