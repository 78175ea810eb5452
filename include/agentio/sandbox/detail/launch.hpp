//
// agentio/sandbox/detail/launch.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Starting one sandbox: the seccomp program, the bubblewrap command line, the
// descriptors it is given, and the spawn. The choices and what each one
// prevents were measured on Debian 12 (docs/notes/sandbox-plan.md).
//

#ifndef AGENTIO_SANDBOX_DETAIL_LAUNCH_HPP
#define AGENTIO_SANDBOX_DETAIL_LAUNCH_HPP

#include <agentio/config.hpp>
#include <agentio/sandbox.hpp>

#include <unistd.h>

#include <string>
#include <vector>

namespace agentio::sandbox::detail {

/// A descriptor owned: closed when dropped.
class unique_fd
{
public:
    unique_fd() = default;
    explicit unique_fd(int fd) noexcept : fd_(fd) {}
    unique_fd(unique_fd&& other) noexcept : fd_(other.release()) {}
    unique_fd& operator=(unique_fd&& other) noexcept
    {
        if(this != &other)
        {
            reset();
            fd_ = other.release();
        }
        return *this;
    }
    ~unique_fd() { reset(); }

    int get() const noexcept { return fd_; }
    explicit operator bool() const noexcept { return fd_ >= 0; }
    int release() noexcept
    {
        int const fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset() noexcept
    {
        if(fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

/// The seccomp filter as raw `struct sock_filter` instructions (libseccomp, this machine's architecture):
/// what a computation never needs refused with EPERM, sockets other than AF_UNIX with EAFNOSUPPORT.
/// Throws `unavailable` when libseccomp cannot build it.
AGENTIO_DECL std::string seccomp_program();

/// The descriptors bubblewrap is given, by their numbers in the child.
struct descriptor_plan
{
    int seccomp = -1;
    int status = -1;
    std::vector<int> files; ///< one per `request::files`, in order
};

/// bubblewrap's arguments (after its own path) for `what`, under `how`.
AGENTIO_DECL std::vector<std::string> bwrap_arguments(options const& how, request const& what,
    descriptor_plan const& fds);

/// A started sandbox: bubblewrap's pid (the outer process: killing it ends the whole tree) and this
/// process's ends of its pipes.
struct launched
{
    pid_t pid = 0;
    unique_fd output;
    unique_fd errors;
    unique_fd status;  ///< bubblewrap's `--json-status-fd`
    unique_fd channel; ///< descriptor 3 inside, when asked for
};

/// Starts `what` (already checked) with `filter` as its seccomp program. Throws `failure` naming the step
/// that failed.
AGENTIO_DECL launched launch(options const& how, std::string const& filter, request const& what);

/// Throws `std::invalid_argument` naming the field of `what` that cannot be run.
AGENTIO_DECL void check(request const& what);

/// Throws `failure` unless `program` is an executable the sandbox sees (under `/usr`, a read-only folder
/// of `how`, or a given file under `/work`).
AGENTIO_DECL void check_program(options const& how, std::string const& program);

/// `what` run by the Landlock launcher (`options::landlock_launcher`), which walls it first.
AGENTIO_DECL request through_launcher(options const& how, request what);

/// SIGKILL to `pid` and wait for it, unless reaped already.
AGENTIO_DECL void kill_and_reap(pid_t pid) noexcept;

} // namespace agentio::sandbox::detail

#endif
