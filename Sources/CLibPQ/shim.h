#pragma once
#include <libpq-fe.h>
/* For the Postgres module's event loop (Glibc's module map leaves these out). */
#include <sys/epoll.h>
#include <sys/eventfd.h>
