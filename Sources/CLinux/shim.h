/* Linux system calls that Swift's Glibc module does not export: epoll, timerfd, signalfd, inotify. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
