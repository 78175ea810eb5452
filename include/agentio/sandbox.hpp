//
// agentio/sandbox.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Untrusted programs run in isolation by the kernel (Linux): bubblewrap's
// user, PID, IPC, UTS, cgroup and network namespaces with nothing of the host
// but read-only system folders, a seccomp filter (libseccomp) refusing what a
// computation never needs, resource limits, a wall clock that kills the whole
// tree, and captured, capped output. Nothing ever runs unsandboxed: a machine
// that cannot isolate makes `sandbox::runner`'s constructor throw
// `sandbox::unavailable` naming what is missing.
//

#ifndef AGENTIO_SANDBOX_HPP
#define AGENTIO_SANDBOX_HPP

#include <agentio/config.hpp>

#if !defined(__linux__)
#error agentio::sandbox isolates with Linux namespaces and seccomp: it builds on Linux only.
#endif

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/system/result.hpp>

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentio::metrics {
class registry;
} // namespace agentio::metrics

namespace agentio::sandbox {

namespace detail {
struct slot_guard;
} // namespace detail

/// The bounds of one run, each enforced by the kernel. The memory, CPU and
/// file limits are per process (`RLIMIT_*`); `processes` bounds the tree.
struct limits
{
    /// From the start to a kill of the whole tree, however it spends its time.
    std::chrono::milliseconds wall_time = std::chrono::seconds(10);
    /// CPU time of each process (`RLIMIT_CPU`): SIGXCPU at the limit.
    std::chrono::seconds cpu_time{5};
    /// Address space of each process (`RLIMIT_AS`).
    std::uint64_t memory_bytes = std::uint64_t(1) << 30;
    /// The largest file a process may write (`RLIMIT_FSIZE`).
    std::uint64_t file_bytes = std::uint64_t(64) << 20;
    /// Processes and threads of the run (`RLIMIT_NPROC`, counted in its own user namespace).
    unsigned processes = 64;
    /// Open descriptors of each process (`RLIMIT_NOFILE`).
    unsigned open_files = 256;
    /// The writable folders: `/work` (the working folder), `/tmp`, `/dev/shm`; memory-backed, sized.
    std::uint64_t work_bytes = std::uint64_t(128) << 20;
    std::uint64_t tmp_bytes = std::uint64_t(64) << 20;
    std::uint64_t shm_bytes = std::uint64_t(16) << 20;
    /// Standard output kept; a program writing more is stopped (`ending::output_limit`).
    std::size_t output_bytes = 256 * 1024;
    /// Standard error kept: its last bytes (where a traceback ends); more is dropped, not fatal.
    std::size_t error_bytes = 64 * 1024;
    /// What the program may write to descriptor 3 (`request::result_channel`); more is `output_limit`.
    std::size_t channel_bytes = 1024 * 1024;
};

/// A file given to the program read-only, copied into the sandbox (no host path is visible).
struct input_file
{
    /// Relative to the working folder `/work`: letters, digits, `._-` and `/`, no `..`.
    std::string path;
    std::string content;
};

/// Who walls a run's file system with Landlock, where the kernel has it (`runner::landlock_abi`).
enum class landlock_by
{
    /// The runner: a launcher (Perl, which every Debian has) restricts itself inside the sandbox, after the
    /// mounts, then executes the program (about 3 ms). Read-only `/usr`, `/etc` and `/proc`; writable, never
    /// executable, `/work`, `/tmp` and `/dev`; only the program and `request::executables` executable.
    launcher,
    /// The program itself, first thing (one that knows how: the runner applies nothing).
    program,
    /// Nobody: the namespaces, the filter and the limits only.
    nobody
};

/// One program to run.
struct request
{
    /// An absolute path inside the sandbox, under one of `options::read_only` (e.g. `/usr/bin/python3`).
    std::string program;
    std::vector<std::string> arguments;
    /// Its standard input (a file it may read, seek or ignore).
    std::string standard_input;
    std::vector<input_file> files;
    /// On top of `PATH`, `HOME=/work`, `LANG=C.UTF-8` and `TMPDIR=/tmp`; nothing of the server's environment.
    std::vector<std::pair<std::string, std::string>> environment;
    /// Descriptor 3 open for writing inside: a channel for a structured result apart from the program's
    /// own output, read into `result::channel`.
    bool result_channel = false;
    sandbox::limits limits;
    sandbox::landlock_by landlock = landlock_by::launcher;
    /// Under `landlock_by::launcher`, what the program may execute besides itself (`/usr/bin/sh`, say).
    std::vector<std::string> executables;
};

/// How a run ended.
enum class ending
{
    exited,      ///< the program exited: `result::exit_code`
    signaled,    ///< a signal ended it: `result::signal` (SIGXCPU at the CPU limit, SIGKILL, SIGSEGV, …)
    timed_out,   ///< the wall clock ran out and the tree was killed
    output_limit ///< it wrote more than `limits::output_bytes` (or `channel_bytes`) and was killed
};

/// What a run did.
struct result
{
    ending how = ending::exited;
    int exit_code = 0; ///< when `exited`
    int signal = 0;    ///< when `signaled`
    std::string output;
    std::string errors;
    std::string channel;
    bool errors_truncated = false; ///< `errors` holds only the last `limits::error_bytes`
    std::chrono::microseconds duration{};
    /// The Landlock ABI the launcher applied (`landlock_by::launcher`); 0 when it did not (no Landlock in the
    /// kernel, or another `landlock_by`).
    int landlock_abi = 0;

    bool succeeded() const noexcept { return how == ending::exited && exit_code == 0; }

    /// The limit a signal names: "cpu time" (SIGXCPU), "file size" (SIGXFSZ), or empty.
    std::string_view limit_hit() const noexcept;

    /// One line for a person or a model: "exited with status 1", "stopped after 10 s (wall clock)", …
    std::string describe(limits const& applied) const;
};

/// This machine cannot isolate a program; the message names what is missing and how to get it.
class unavailable : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// One run could not be set up (bubblewrap's own message), or waited too long for a free slot.
class failure : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// How a runner isolates, and how many run at once.
struct options
{
    std::filesystem::path bwrap = "/usr/bin/bwrap";
    std::filesystem::path prlimit = "/usr/bin/prlimit";
    std::filesystem::path setpriv = "/usr/bin/setpriv";
    /// The host uid and gid bubblewrap runs as when this process is root (the kernel does not count a root
    /// user's processes, and a namespace's root would be the host's). Never 0.
    uid_t run_as = 65534;
    /// Host folders or files visible read-only at the same path; those absent here are skipped.
    /// `/usr` is always first; `/bin`, `/lib`, `/lib64` and `/sbin` are links into it (merged /usr).
    std::vector<std::filesystem::path> read_only = {"/usr", "/etc/alternatives"};
    /// The interpreter of `landlock_by::launcher` (Debian's essential `perl-base`). Where the kernel has
    /// Landlock and this is missing, the runner is `unavailable`. Empty: no launcher, and runs asking for one
    /// go without Landlock (`result::landlock_abi` says 0).
    std::filesystem::path landlock_launcher = "/usr/bin/perl";
    /// Runs at once; the others wait in line, at most `max_wait`.
    std::size_t max_running = 4;
    std::chrono::milliseconds max_wait = std::chrono::seconds(30);
};

/// What a runner has done since it was made.
struct statistics
{
    std::size_t running = 0; ///< runs in progress
    std::size_t waiting = 0; ///< runs waiting for a free slot
    /// Runs ended, by `ending`: `exited` (any status), `signaled`, `timed_out`, `output_limit`.
    std::uint64_t exited = 0;
    std::uint64_t signaled = 0;
    std::uint64_t timed_out = 0;
    std::uint64_t output_limit = 0;
    /// Runs that never ran: no slot freed within `options::max_wait`, or the sandbox could not start.
    std::uint64_t refused = 0;
    /// The wall time of the runs that ended, added up.
    std::chrono::microseconds busy{};
};

/// Runs requests in sandboxes, at most `options::max_running` at once. Thread-safe; cheap to share by
/// reference; must outlive its runs.
class runner
{
public:
    /// Checks once that this machine can isolate — bubblewrap present and not setuid, the namespaces, the
    /// filter, the limits and Landlock's launcher working — by running `/usr/bin/true` in a sandbox (about
    /// 15 ms). Throws
    /// `unavailable` naming what is missing.
    explicit runner(boost::asio::any_io_executor executor, options how = {});
    ~runner();
    runner(runner const&) = delete;
    runner& operator=(runner const&) = delete;

    /// Runs `what` and reports how it ended. Throws `std::invalid_argument` for a malformed request
    /// (naming the field), `failure` when the sandbox could not be set up or no slot freed within
    /// `options::max_wait`. Cancelling the awaiting coroutine kills the run's whole tree.
    boost::asio::awaitable<result> run(request what);

    options const& settings() const noexcept;
    /// The kernel's Landlock ABI (probed once; 0: none, the other walls still hold).
    int landlock_abi() const noexcept;
    /// Runs in progress now.
    std::size_t running() const noexcept;

    /// What it has run so far, and what runs or waits now.
    sandbox::statistics statistics() const noexcept;

    /** Exposes `statistics()` in `registry`, read at each scrape:
        `agentio_sandbox_runs_active`, `agentio_sandbox_runs_waiting` (gauges),
        `agentio_sandbox_runs_total{ending}` (`exited`, `signaled`, `timed_out`,
        `output_limit`, `refused`) and `agentio_sandbox_run_seconds_total`.
        The registry may outlive the runner: its series then stay as they were. */
    void add_metrics(metrics::registry& registry) const;

private:
    friend struct detail::slot_guard;
    struct state;
    std::shared_ptr<state> state_;
};

/// A Python snippet to run in a sandbox, the way a notebook cell runs.
struct python_request
{
    std::string code;
    /// Given read-only under `/work` (the snippet's working folder).
    std::vector<input_file> files;
    sandbox::limits limits;
    /// Debian's interpreter, which sees the packages Debian installs (python3-numpy, python3-sympy).
    std::string interpreter = "/usr/bin/python3";
};

/// How a snippet ended.
struct python_result
{
    /// The run itself: output, errors (a traceback, its frames the snippet's own), status, duration.
    sandbox::result run;
    /// `repr` of the last statement's value when it is an expression that is not None, as a notebook shows it.
    std::optional<std::string> value;
    /// An exception that ended the snippet: its type (`ZeroDivisionError`, `MemoryError`, …) and message.
    std::optional<std::pair<std::string, std::string>> exception;

    /// One line for a person or a model: "completed", "raised ZeroDivisionError: division by zero",
    /// "ran out of memory (limit 1 GiB)", "was stopped after 10 s (its wall-clock limit)", …
    std::string describe(limits const& applied) const;
};

/** A trusted Python program run on untrusted input (a parser, a computation): it reads its `input` as JSON on
    standard input and writes one JSON object, its answer, to descriptor 3. */
struct python_program
{
    std::string source;
    boost::json::object input;
    /// Given read-only under `/work` beside it (the file to read, say).
    std::vector<input_file> files;
    sandbox::limits limits;
    /// What it may execute besides the interpreter (Landlock): `/usr/bin/pdftotext`, say.
    std::vector<std::string> executables;
    std::string interpreter = "/usr/bin/python3";
};

/** Runs `what` in `in` (Landlock by the launcher, `executables` besides the interpreter): the object it
    answered, or a sentence saying why there is none, to follow the program's name ("could not start: …", "was
    stopped after 20 s (its wall-clock limit)", "ended without an answer (exited with status 1)"). */
AGENTIO_DECL boost::asio::awaitable<boost::system::result<boost::json::object, std::string>>
run_python_program(runner& in, python_program what);

/// Runs `what` in `in`: the snippet is compiled as a module whose last expression, if any, is evaluated apart,
/// with `-I` (no environment variables, no user site), from `/work`. Throws what `runner::run` throws.
boost::asio::awaitable<python_result> run_python(runner& in, python_request what);

/// Why this machine cannot isolate with `how`, or nothing when it can (what the constructor checks).
AGENTIO_DECL std::optional<std::string> why_unavailable(options const& how);

} // namespace agentio::sandbox

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/sandbox/impl/sandbox.ipp>
#endif

#endif
