//
// agentio/detail/child_process.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_DETAIL_CHILD_PROCESS_HPP
#define AGENTIO_DETAIL_CHILD_PROCESS_HPP

// A child process started with posix_spawn, its standard input and output on
// pipes.
//
// Why not fork + exec (as Boost.Process v2's default launcher does): between
// the two, the child of a multi-threaded process may only call
// async-signal-safe functions, and that launcher runs Asio's fork
// notifications and allocates there. A lock another thread held at the fork
// (the allocator's under a sanitizer, a reactor's mutex) is never released in
// the child, which then hangs before exec, and the parent with it, reading the
// pipe that reports exec's failure. posix_spawn runs nothing of ours in the
// child.

#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern char** environ; // NOLINT: POSIX declares it nowhere else

namespace agentio::detail {

/// What starting a child needs.
struct child_spec
{
    std::filesystem::path program; ///< an absolute or relative path: no PATH search here
    std::vector<std::string> arguments;
    std::filesystem::path working_directory; ///< empty: this process's
    int stderr_fd = -1;                      ///< the child's standard error; -1: this process's
    /// Variables set (a value) or removed (none) in the child's environment; the rest is this process's.
    std::vector<std::pair<std::string, std::optional<std::string>>> environment = {};
};

/// A started child: its pid and this process's ends of its two pipes.
class child_process
{
public:
    child_process() = default;
    child_process(child_process const&) = delete;
    child_process& operator=(child_process const&) = delete;

    /// The child's end of standard input for writing, its standard output for
    /// reading; each has close-on-exec set and belongs to the caller.
    struct pipes
    {
        int to_child = -1;
        int from_child = -1;
    };

    /// Starts `spec`. Throws `boost::system::system_error` naming what failed.
    pipes start(child_spec const& spec)
    {
        int in[2] = {-1, -1}, out[2] = {-1, -1};
        if(::pipe2(in, O_CLOEXEC) != 0)
            fail(errno, "pipe");
        if(::pipe2(out, O_CLOEXEC) != 0)
        {
            int const e = errno;
            close_all({in[0], in[1]});
            fail(e, "pipe");
        }
        int const rc = spawn(spec, in[0], out[1]);
        // The child has its copies (or failed): this process keeps only its ends.
        close_all({in[0], out[1]});
        if(rc != 0)
        {
            close_all({in[1], out[0]});
            fail(rc, "posix_spawn " + spec.program.string());
        }
        return {in[1], out[0]};
    }

    ~child_process() { kill_and_reap(); }

    /// The pid; 0 before start and after the child was reaped.
    pid_t pid() const noexcept { return pid_; }

    /// Whether the child has not ended yet. The check that finds it ended
    /// reaps it and records its exit code; from then on its pid is not ours.
    bool running() noexcept
    {
        if(pid_ <= 0)
            return false;
        int status = 0;
        pid_t r;
        do
            r = ::waitpid(pid_, &status, WNOHANG);
        while(r < 0 && errno == EINTR);
        if(r == 0)
            return true;
        if(r == pid_)
            exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        pid_ = 0; // reaped, or no longer our child
        return false;
    }

    /// The exit code once reaped (128 + the signal for a child a signal ended).
    std::optional<int> exit_code() const noexcept { return exit_code_; }

    /// Sends `signal_number` to a child not yet reaped.
    void signal(int signal_number) noexcept
    {
        if(pid_ > 0)
            ::kill(pid_, signal_number);
    }

    /// SIGKILL and wait: the child never outlives its handle as a zombie.
    void kill_and_reap() noexcept
    {
        if(!running())
            return;
        ::kill(pid_, SIGKILL);
        int status = 0;
        while(::waitpid(pid_, &status, 0) < 0 && errno == EINTR)
        {
        }
        exit_code_ = 128 + SIGKILL;
        pid_ = 0;
    }

private:
    [[noreturn]] static void fail(int error, std::string const& what)
    {
        throw boost::system::system_error(boost::system::error_code(error, boost::system::system_category()), what);
    }

    static void close_all(std::initializer_list<int> fds) noexcept
    {
        for(int fd : fds)
            if(fd >= 0)
                ::close(fd);
    }

    int spawn(child_spec const& spec, int stdin_fd, int stdout_fd)
    {
        std::vector<std::string> words;
        words.reserve(spec.arguments.size() + 1);
        words.push_back(spec.program.string());
        words.insert(words.end(), spec.arguments.begin(), spec.arguments.end());
        std::vector<char*> argv;
        for(auto& w : words)
            argv.push_back(w.data());
        argv.push_back(nullptr);
        // This process's environment with the spec's changes, when it has any.
        std::vector<std::string> variables;
        std::vector<char*> envp;
        if(!spec.environment.empty())
        {
            auto changed = [&spec](std::string_view entry) {
                auto const name = entry.substr(0, entry.find('='));
                for(auto const& [n, v] : spec.environment)
                    if(n == name)
                        return true;
                return false;
            };
            for(char** e = environ; *e; ++e)
                if(!changed(*e))
                    variables.emplace_back(*e);
            for(auto const& [name, value] : spec.environment)
                if(value)
                    variables.push_back(name + "=" + *value);
            for(auto& v : variables)
                envp.push_back(v.data());
            envp.push_back(nullptr);
        }

        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attributes;
        if(int rc = ::posix_spawn_file_actions_init(&actions); rc != 0)
            return rc;
        if(int rc = ::posix_spawnattr_init(&attributes); rc != 0)
        {
            ::posix_spawn_file_actions_destroy(&actions);
            return rc;
        }
        int rc = 0;
        auto step = [&rc](int r) {
            if(rc == 0)
                rc = r;
        };
        // dup2 clears close-on-exec on the copy, so exactly 0, 1 (and 2) reach the child.
        step(::posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0));
        step(::posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1));
        if(spec.stderr_fd >= 0)
            step(::posix_spawn_file_actions_adddup2(&actions, spec.stderr_fd, 2));
        if(!spec.working_directory.empty())
            step(::posix_spawn_file_actions_addchdir_np(&actions, spec.working_directory.c_str()));
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
        // A descriptor some library opened without close-on-exec stays here.
        step(::posix_spawn_file_actions_addclosefrom_np(&actions, 3));
#endif
        // The child starts as from a shell: no signal blocked, SIGPIPE (which
        // servers ignore) back to its default.
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        step(::posix_spawnattr_setsigmask(&attributes, &none));
        step(::posix_spawnattr_setsigdefault(&attributes, &defaults));
        step(::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
        if(rc == 0)
            rc = ::posix_spawn(&pid_, argv[0], &actions, &attributes, argv.data(),
                envp.empty() ? environ : envp.data());
        ::posix_spawnattr_destroy(&attributes);
        ::posix_spawn_file_actions_destroy(&actions);
        if(rc != 0)
            pid_ = 0;
        return rc;
    }

    pid_t pid_ = 0;
    std::optional<int> exit_code_;
};

} // namespace agentio::detail

#endif
