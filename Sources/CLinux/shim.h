/* Linux system calls that Swift's Glibc module does not export: epoll, timerfd, signalfd, inotify,
 * accept4. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>

/* accept4(2) is declared only under _GNU_SOURCE; this one declaration, in the kernel's own terms. */
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
