//
// agentio/sandbox/impl/sandbox.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_SANDBOX_IMPL_SANDBOX_IPP
#define AGENTIO_SANDBOX_IMPL_SANDBOX_IPP

#include <agentio/metrics.hpp>
#include <agentio/sandbox.hpp>
#include <agentio/sandbox/detail/launch.hpp>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <seccomp.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <sched.h>

namespace agentio::sandbox {

namespace detail {

namespace asio = boost::asio;

// Where the descriptors handed to the child wait in this process: above every
// number the child uses, so that no dup2 of the spawn overwrites a source
// before it is copied.
inline constexpr int parked_descriptors = 100;

[[noreturn]] inline void fail_step(int error, std::string const& what)
{
    throw failure("agentio::sandbox: " + what + ": " + std::strerror(error));
}

inline unique_fd park(int fd, std::string const& what)
{
    if(fd < 0)
        fail_step(errno, what);
    unique_fd original(fd);
    int const moved = ::fcntl(fd, F_DUPFD_CLOEXEC, parked_descriptors);
    if(moved < 0)
        fail_step(errno, what);
    return unique_fd(moved);
}

inline unique_fd memory_file(std::string_view content, std::string const& what)
{
    unique_fd fd = park(::memfd_create("agentio-sandbox", MFD_CLOEXEC), what);
    std::size_t done = 0;
    while(done < content.size())
    {
        ssize_t const n = ::write(fd.get(), content.data() + done, content.size() - done);
        if(n < 0 && errno == EINTR)
            continue;
        if(n <= 0)
            fail_step(errno, what);
        done += static_cast<std::size_t>(n);
    }
    if(::lseek(fd.get(), 0, SEEK_SET) != 0)
        fail_step(errno, what);
    return fd;
}

struct pipe_pair
{
    unique_fd read_end;
    unique_fd write_end;
};

inline pipe_pair make_pipe(std::string const& what)
{
    int ends[2] = {-1, -1};
    if(::pipe2(ends, O_CLOEXEC) != 0)
        fail_step(errno, what);
    unique_fd r(ends[0]), w(ends[1]);
    return {park(r.release(), what), park(w.release(), what)};
}

AGENTIO_DECL std::string seccomp_program()
{
    // Computation needs none of these; most already fail without
    // capabilities, and refusing them removes the kernel code behind them
    // (io_uring, bpf, userfaultfd, keyctl, perf) from the program's reach.
    // ptrace above all: a traced pid 1 would wedge bubblewrap.
    static constexpr char const* refused[] = {"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "mount",
        "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
        "mount_setattr", "unshare", "setns", "keyctl", "add_key", "request_key", "bpf", "perf_event_open",
        "userfaultfd", "fanotify_init", "io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load",
        "kexec_file_load", "reboot", "init_module", "finit_module", "delete_module", "swapon", "swapoff", "acct",
        "open_by_handle_at", "name_to_handle_at", "personality", "quotactl", "syslog", "uselib", "ustat", "sysfs",
        "vhangup", "iopl", "ioperm", "lookup_dcookie"};

    scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ALLOW);
    if(!ctx)
        throw unavailable("agentio::sandbox: libseccomp could not start a filter");
    struct release_filter
    {
        scmp_filter_ctx ctx;
        ~release_filter() { ::seccomp_release(ctx); }
    } release{ctx};

    auto add = [ctx](std::uint32_t action, int syscall, unsigned count, scmp_arg_cmp const* comparisons,
                   char const* name) {
        if(int rc = ::seccomp_rule_add_array(ctx, action, syscall, count, comparisons); rc < 0)
            throw unavailable(std::string("agentio::sandbox: libseccomp refused the rule for ") + name + ": " +
                std::strerror(-rc));
    };
    for(char const* name : refused)
    {
        int const number = ::seccomp_syscall_resolve_name(name);
        if(number != __NR_SCMP_ERROR)
            add(SCMP_ACT_ERRNO(EPERM), number, 0, nullptr, name);
    }
    // New namespaces through clone; clone3 passes its flags in memory a filter
    // cannot read, so it is "not implemented" and glibc falls back to clone.
    for(std::uint64_t flag : {std::uint64_t(CLONE_NEWUSER), std::uint64_t(CLONE_NEWNS), std::uint64_t(CLONE_NEWPID),
            std::uint64_t(CLONE_NEWNET), std::uint64_t(CLONE_NEWUTS), std::uint64_t(CLONE_NEWIPC),
            std::uint64_t(CLONE_NEWCGROUP)})
    {
        scmp_arg_cmp const c = SCMP_A0_64(SCMP_CMP_MASKED_EQ, flag, flag);
        add(SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, &c, "clone");
    }
    add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0, nullptr, "clone3");
    // The kernel reads only the low 32 bits of an ioctl's request.
    for(std::uint64_t request : {std::uint64_t(TIOCSTI), std::uint64_t(TIOCLINUX)})
    {
        scmp_arg_cmp const c = SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xffffffffu, request);
        add(SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1, &c, "ioctl");
    }
    // No network at all, even the namespace's own loopback.
    scmp_arg_cmp const not_unix = SCMP_A0_64(SCMP_CMP_NE, AF_UNIX);
    add(SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, &not_unix, "socket");
    add(SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socketpair), 1, &not_unix, "socketpair");

    unique_fd out(::memfd_create("agentio-seccomp", MFD_CLOEXEC));
    if(!out)
        throw unavailable(std::string("agentio::sandbox: memfd_create: ") + std::strerror(errno));
    if(int rc = ::seccomp_export_bpf(ctx, out.get()); rc < 0)
        throw unavailable(std::string("agentio::sandbox: libseccomp could not export the filter: ") +
            std::strerror(-rc));
    std::string program;
    ::lseek(out.get(), 0, SEEK_SET);
    char buffer[4096];
    for(;;)
    {
        ssize_t const n = ::read(out.get(), buffer, sizeof buffer);
        if(n < 0 && errno == EINTR)
            continue;
        if(n <= 0)
            break;
        program.append(buffer, static_cast<std::size_t>(n));
    }
    if(program.empty() || program.size() % 8 != 0)
        throw unavailable("agentio::sandbox: libseccomp exported an empty or malformed filter");
    return program;
}

AGENTIO_DECL std::vector<std::string> bwrap_arguments(options const& how, request const& what,
    descriptor_plan const& fds)
{
    auto const& l = what.limits;
    std::vector<std::string> a = {// Every namespace new, the network's included: the sandbox has only
        // its own loopback, which the filter does not let it use anyway.
        "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup", "--unshare-net",
        // bubblewrap dies with this process, and its namespace's init with it:
        // nothing started inside outlives the run.
        "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--disable-userns",
        // pid 2's environment; bubblewrap itself is started with none (its pid
        // 1 would show ours in /proc/1/environ).
        "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/work", "--setenv", "LANG", "C.UTF-8",
        "--setenv", "TMPDIR", "/tmp"};
    for(auto const& [name, value] : what.environment)
        a.insert(a.end(), {"--setenv", name, value});
    a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
    for(auto const& path : how.read_only)
    {
        std::error_code ec;
        if(path != "/usr" && std::filesystem::exists(path, ec))
            a.insert(a.end(), {"--ro-bind", path.string(), path.string()});
    }
    // Merged /usr (Debian 12): the ELF interpreter is found through /lib.
    a.insert(a.end(),
        {"--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/sbin", "/sbin"});
    // procfs of the new pid namespace, its /proc/sys read-only (procfs would
    // let a namespace's root write some host settings).
    a.insert(a.end(), {"--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev", "/dev"});
    // Every writable folder sized: memory-backed, never the host's disk.
    a.insert(a.end(),
        {"--size", std::to_string(l.shm_bytes), "--tmpfs", "/dev/shm", "--size", std::to_string(l.tmp_bytes), "--tmpfs",
            "/tmp", "--size", std::to_string(l.work_bytes), "--tmpfs", "/work"});
    for(std::size_t i = 0; i < what.files.size(); ++i)
        a.insert(a.end(), {"--ro-bind-data", std::to_string(fds.files[i]), "/work/" + what.files[i].path});
    // After every mount into it: the root (and /dev) read-only.
    a.insert(a.end(),
        {"--remount-ro", "/dev", "--remount-ro", "/", "--chdir", "/work", "--json-status-fd",
            std::to_string(fds.status), "--seccomp", std::to_string(fds.seccomp)});
    // The limits apply inside the new user namespace: they bind only the
    // program's tree, and the process count is this sandbox's own.
    auto const cpu = static_cast<long long>(l.cpu_time.count());
    a.insert(a.end(),
        {how.prlimit.string(), "--as=" + std::to_string(l.memory_bytes),
            "--cpu=" + std::to_string(cpu) + ":" + std::to_string(cpu + 1), "--nproc=" + std::to_string(l.processes),
            "--fsize=" + std::to_string(l.file_bytes), "--nofile=" + std::to_string(l.open_files), "--core=0", "--",
            what.program});
    a.insert(a.end(), what.arguments.begin(), what.arguments.end());
    return a;
}

inline bool safe_relative_path(std::string_view path)
{
    if(path.empty() || path.size() > 255 || path.front() == '/' || path.back() == '/')
        return false;
    std::size_t start = 0;
    while(start <= path.size())
    {
        std::size_t const end = std::min(path.find('/', start), path.size());
        std::string_view const part = path.substr(start, end - start);
        if(part.empty() || part == "." || part == "..")
            return false;
        for(char c : part)
            if(!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
                return false;
        start = end + 1;
    }
    return true;
}

AGENTIO_DECL void check(request const& what)
{
    auto has_nul = [](std::string_view s) { return s.find('\0') != std::string_view::npos; };
    if(what.program.empty() || what.program.front() != '/' || has_nul(what.program))
        throw std::invalid_argument("sandbox::request::program must be an absolute path inside the sandbox, not '" +
            what.program + "'");
    for(auto const& argument : what.arguments)
        if(has_nul(argument))
            throw std::invalid_argument("sandbox::request::arguments: an argument holds a NUL character");
    for(auto const& executable : what.executables)
        if(executable.empty() || executable.front() != '/' || has_nul(executable))
            throw std::invalid_argument("sandbox::request::executables: '" + executable +
                "' is not an absolute path inside the sandbox");
    for(std::size_t i = 0; i < what.files.size(); ++i)
    {
        if(!safe_relative_path(what.files[i].path))
            throw std::invalid_argument("sandbox::request::files[" + std::to_string(i) + "].path '" +
                what.files[i].path + "' must be relative to /work: letters, digits, '._-' and '/', no '..'");
        for(std::size_t j = 0; j < i; ++j)
            if(what.files[j].path == what.files[i].path)
                throw std::invalid_argument("sandbox::request::files: '" + what.files[i].path + "' given twice");
    }
    if(what.files.size() > 64)
        throw std::invalid_argument("sandbox::request::files: at most 64 files");
    for(auto const& [name, value] : what.environment)
    {
        bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front()));
        for(char c : name)
            ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        if(!ok || has_nul(value))
            throw std::invalid_argument("sandbox::request::environment: '" + name + "' is not a variable's name");
    }
    auto const& l = what.limits;
    if(l.wall_time.count() <= 0 || l.cpu_time.count() <= 0 || l.memory_bytes == 0 || l.processes == 0 ||
        l.open_files < 4 || l.work_bytes == 0 || l.tmp_bytes == 0 || l.shm_bytes == 0)
        throw std::invalid_argument("sandbox::request::limits: every limit must be positive (open_files at least 4)");
}

AGENTIO_DECL void check_program(options const& how, std::string const& program)
{
    // Inside, the program is the host's file at the same path (the folders
    // are bound where they are), or one of the files given under /work.
    if(program.starts_with("/work/"))
        return;
    std::filesystem::path const path = std::filesystem::path(program).lexically_normal();
    auto const under = [](std::filesystem::path const& p, std::filesystem::path const& root) {
        auto const rest = p.lexically_relative(root);
        return !rest.empty() && *rest.begin() != "..";
    };
    std::filesystem::path on_host = path;
    for(char const* link : {"/bin", "/lib", "/lib64", "/sbin"})
        if(under(path, link))
            on_host = std::filesystem::path("/usr") / (link + 1) / path.lexically_relative(link);
    bool visible = under(on_host, "/usr");
    for(auto const& root : how.read_only)
        visible = visible || under(on_host, root);
    if(!visible)
        throw failure("agentio::sandbox: " + program + " is outside the folders the sandbox sees");
    if(::access(on_host.c_str(), X_OK) != 0)
        fail_step(errno, "cannot run " + program);
}

// Landlock for any program: Perl (perl-base is essential in Debian, and
// starts in about 3 ms) restricts itself inside the sandbox, after
// bubblewrap's mounts, and executes the program, which inherits the domain.
// Its arguments: the count of
// executables, them, the count of the request's PERL* variables (which
// would change what Perl itself does: it sets them for the program only),
// them as name and value, then the program and its arguments.
inline constexpr char const* landlock_launcher_source = R"pl(use strict;
sub fail { print STDERR "agentio::sandbox launcher: @_\n"; exit 127; }
my @executables = splice(@ARGV, 0, shift @ARGV);
my %perl_environment = splice(@ARGV, 0, 2 * shift @ARGV);
my $program = $ARGV[0];
my $abi = syscall(444, 0, 0, 1);
if ($abi >= 1) {
    my $handled = (1 << 13) - 1;
    $handled |= 1 << 13 if $abi >= 2;
    $handled |= 1 << 14 if $abi >= 3;
    $handled |= 1 << 15 if $abi >= 5;
    my $attributes = pack("Q3", $handled, $abi >= 4 ? 3 : 0, $abi >= 6 ? 3 : 0);
    my $ruleset = syscall(444, $attributes, $abi < 4 ? 8 : $abi < 6 ? 16 : 24, 0);
    fail("landlock_create_ruleset: $!") if $ruleset < 0;
    my $file_rights = 1 | 2 | 4 | (1 << 14) | (1 << 15);
    my $allow = sub {
        my ($path, $rights) = @_;
        # O_PATH | O_CLOEXEC, following links: the rule is on the file itself.
        my $fd = syscall(OPENAT, -100, $path, 0x200000 | 0x80000);
        return if $fd < 0;
        $rights &= $file_rights unless -d $path;
        my $done = syscall(445, $ruleset, 1, pack("Ql", $rights & $handled, $fd), 0);
        my $why = "$!";
        syscall(CLOSE, $fd);
        fail("landlock_add_rule $path: $why") if $done != 0;
    };
    $allow->($_, 4 | 8) for ("/usr", "/etc", "/proc");
    $allow->($_, $handled & ~1) for ("/work", "/tmp", "/dev/shm", "/dev");
    $allow->($_, 4 | 1) for ($program, @executables, "/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1");
    fail("PR_SET_NO_NEW_PRIVS: $!") if syscall(PRCTL, 38, 1, 0, 0, 0) != 0;
    fail("landlock_restrict_self: $!") if syscall(446, $ruleset, 0) != 0;
    syscall(CLOSE, $ruleset);
}
$ENV{$_} = $perl_environment{$_} for keys %perl_environment;
exec { $program } @ARGV or fail("cannot execute $program: $!");
)pl";

/// What the launcher says before its status 127 when it could not wall or start the program.
inline constexpr std::string_view launcher_refusal = "agentio::sandbox launcher: ";

/// The kernel's Landlock ABI, 0 without Landlock.
inline int kernel_landlock_abi() noexcept
{
    // landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)
    long const abi = ::syscall(444, nullptr, 0, 1u);
    return abi > 0 ? static_cast<int>(abi) : 0;
}

/// `what` run by the launcher, which walls it with Landlock first.
AGENTIO_DECL request through_launcher(options const& how, request what)
{
    // Older system calls have a number of their own on each architecture
    // (Perl's modules that would name them cost it 10 ms to load).
#if defined(__x86_64__)
    std::pair<std::string_view, std::string_view> const numbers[] = {{"PRCTL", "157"}, {"OPENAT", "257"},
        {"CLOSE", "3"}};
#elif defined(__aarch64__)
    std::pair<std::string_view, std::string_view> const numbers[] = {{"PRCTL", "167"}, {"OPENAT", "56"},
        {"CLOSE", "57"}};
#else
#error "agentio::sandbox: the Landlock launcher knows system call numbers on x86_64 and aarch64 only"
#endif
    std::string source = landlock_launcher_source;
    for(auto const& [name, number] : numbers)
        for(auto at = source.find(name); at != std::string::npos; at = source.find(name, at))
            source.replace(at, name.size(), number);
    std::vector<std::string> arguments = {"-e", std::move(source), "--", std::to_string(what.executables.size())};
    arguments.insert(arguments.end(), what.executables.begin(), what.executables.end());
    auto const perls = std::stable_partition(what.environment.begin(), what.environment.end(),
        [](auto const& variable) { return !variable.first.starts_with("PERL"); });
    arguments.push_back(std::to_string(what.environment.end() - perls));
    for(auto it = perls; it != what.environment.end(); ++it)
        arguments.insert(arguments.end(), {it->first, it->second});
    what.environment.erase(perls, what.environment.end());
    arguments.push_back(std::move(what.program));
    arguments.insert(arguments.end(), std::make_move_iterator(what.arguments.begin()),
        std::make_move_iterator(what.arguments.end()));
    what.program = how.landlock_launcher.string();
    what.arguments = std::move(arguments);
    return what;
}

AGENTIO_DECL launched launch(options const& how, std::string const& filter, request const& what)
{
    check_program(how, what.program);
    // Standard input is a file the program may read or ignore: no pipe to
    // write while it runs, no SIGPIPE when it does not read.
    unique_fd input = memory_file(what.standard_input, "standard input");
    pipe_pair output = make_pipe("pipe"), errors = make_pipe("pipe"), status = make_pipe("pipe");
    pipe_pair channel;
    if(what.result_channel)
        channel = make_pipe("pipe");
    unique_fd seccomp = memory_file(filter, "seccomp filter");
    std::vector<unique_fd> files;
    for(auto const& f : what.files)
        files.push_back(memory_file(f.content, "file " + f.path));

    // The child's numbers: 0-2, 3 for the channel when asked (bubblewrap
    // passes every descriptor it does not consume into the sandbox), then
    // those bubblewrap consumes and closes before the program starts.
    std::vector<std::pair<int, int>> moves = {{input.get(), 0}, {output.write_end.get(), 1},
        {errors.write_end.get(), 2}};
    int next = 3;
    if(what.result_channel)
        moves.emplace_back(channel.write_end.get(), next++);
    descriptor_plan plan;
    plan.seccomp = next++;
    moves.emplace_back(seccomp.get(), plan.seccomp);
    plan.status = next++;
    moves.emplace_back(status.write_end.get(), plan.status);
    for(auto const& f : files)
    {
        plan.files.push_back(next);
        moves.emplace_back(f.get(), next++);
    }

    std::vector<std::string> words;
    bool const as_root = ::geteuid() == 0;
    if(as_root)
    {
        // As root, bubblewrap's namespace root would be the host's: start it as
        // an unprivileged uid (which needs no passwd entry).
        auto const id = std::to_string(how.run_as);
        words = {how.setpriv.string(), "--reuid=" + id, "--regid=" + id, "--clear-groups", "--", how.bwrap.string()};
    }
    else
        words = {how.bwrap.string()};
    auto arguments = bwrap_arguments(how, what, plan);
    words.insert(words.end(), std::make_move_iterator(arguments.begin()), std::make_move_iterator(arguments.end()));
    std::vector<char*> argv;
    for(auto& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    char* no_environment[] = {nullptr};

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    if(int rc = ::posix_spawn_file_actions_init(&actions); rc != 0)
        fail_step(rc, "posix_spawn_file_actions_init");
    if(int rc = ::posix_spawnattr_init(&attributes); rc != 0)
    {
        ::posix_spawn_file_actions_destroy(&actions);
        fail_step(rc, "posix_spawnattr_init");
    }
    int rc = 0;
    auto step = [&rc](int r) {
        if(rc == 0)
            rc = r;
    };
    // dup2 clears close-on-exec on the copy: exactly these reach the child.
    for(auto [from, to] : moves)
        step(::posix_spawn_file_actions_adddup2(&actions, from, to));
    step(::posix_spawn_file_actions_addclosefrom_np(&actions, next));
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    step(::posix_spawnattr_setsigmask(&attributes, &none));
    step(::posix_spawnattr_setsigdefault(&attributes, &defaults));
    // Its own session: a terminal's Ctrl-C to the server does not reach it.
    step(::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID));
    pid_t pid = 0;
    if(rc == 0)
        rc = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), no_environment);
    ::posix_spawnattr_destroy(&attributes);
    ::posix_spawn_file_actions_destroy(&actions);
    if(rc != 0)
        fail_step(rc, "cannot start " + std::string(argv[0]));

    launched started;
    started.pid = pid;
    started.output = std::move(output.read_end);
    started.errors = std::move(errors.read_end);
    started.status = std::move(status.read_end);
    started.channel = std::move(channel.read_end);
    return started; // the child's ends close here: end of file once it and its tree are gone
}

AGENTIO_DECL void kill_and_reap(pid_t pid) noexcept
{
    if(pid <= 0)
        return;
    ::kill(pid, SIGKILL);
    int status = 0;
    while(::waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
}

// --- a run -------------------------------------------------------------------

/// The outer bubblewrap, killed and reaped on every way out of a run.
class running_child
{
public:
    explicit running_child(pid_t pid) noexcept : pid_(pid) {}
    running_child(running_child const&) = delete;
    running_child& operator=(running_child const&) = delete;
    ~running_child() { kill_and_reap(pid_); }

    pid_t pid() const noexcept { return pid_; }

    void kill() noexcept
    {
        if(pid_ > 0 && !killed_)
        {
            ::kill(pid_, SIGKILL);
            killed_ = true;
        }
    }

    /// Waits for the exit without blocking the thread (a pidfd), then reaps.
    asio::awaitable<void> wait()
    {
        int const fd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
        if(fd >= 0)
        {
            asio::posix::stream_descriptor exit(co_await asio::this_coro::executor, fd);
            boost::system::error_code ec;
            co_await exit.async_wait(asio::posix::stream_descriptor::wait_read,
                asio::redirect_error(asio::use_awaitable, ec));
        }
        else
        {
            asio::steady_timer poll(co_await asio::this_coro::executor);
            int status = 0;
            while(::waitpid(pid_, &status, WNOHANG) == 0)
            {
                poll.expires_after(std::chrono::milliseconds(2));
                co_await poll.async_wait(asio::use_awaitable);
            }
            pid_ = 0;
            co_return;
        }
        kill_and_reap(pid_); // it has exited: the kill finds a zombie, the wait returns at once
        pid_ = 0;
    }

private:
    pid_t pid_ = 0;
    bool killed_ = false;
};

/// What the readers gather.
struct gathered
{
    std::string output, errors, status, channel;
    bool errors_truncated = false;
    bool over_limit = false;
};

inline asio::awaitable<void> read_capped(asio::readable_pipe& from, std::string& into, std::size_t cap,
    bool& over_limit, running_child& child)
{
    char buffer[16384];
    for(;;)
    {
        boost::system::error_code ec;
        std::size_t const n = co_await from.async_read_some(asio::buffer(buffer),
            asio::redirect_error(asio::use_awaitable, ec));
        if(ec)
            co_return;
        if(over_limit)
            continue; // draining what is left while the tree dies
        into.append(buffer, n);
        if(into.size() > cap)
        {
            // A flood is a runaway loop far more often than a result.
            into.resize(cap);
            over_limit = true;
            child.kill();
        }
    }
}

inline asio::awaitable<void> read_tail(asio::readable_pipe& from, std::string& into, std::size_t cap, bool& truncated)
{
    char buffer[16384];
    for(;;)
    {
        boost::system::error_code ec;
        std::size_t const n = co_await from.async_read_some(asio::buffer(buffer),
            asio::redirect_error(asio::use_awaitable, ec));
        if(ec)
            break;
        into.append(buffer, n);
        if(into.size() > 2 * cap + sizeof buffer)
        {
            into.erase(0, into.size() - cap);
            truncated = true;
        }
    }
    if(into.size() > cap)
    {
        into.erase(0, into.size() - cap);
        truncated = true;
    }
}

inline asio::awaitable<void> read_all(asio::readable_pipe& from, std::string& into)
{
    char buffer[4096];
    for(;;)
    {
        boost::system::error_code ec;
        std::size_t const n = co_await from.async_read_some(asio::buffer(buffer),
            asio::redirect_error(asio::use_awaitable, ec));
        if(ec || into.size() > 65536)
            co_return;
        into.append(buffer, n);
    }
}

inline asio::awaitable<void> read_channel(asio::readable_pipe* from, std::string& into, std::size_t cap,
    bool& over_limit, running_child& child)
{
    if(from)
        co_await read_capped(*from, into, cap, over_limit, child);
}

inline asio::awaitable<void> gather(asio::readable_pipe& output, asio::readable_pipe& errors,
    asio::readable_pipe& status, asio::readable_pipe* channel, limits const& l, gathered& into, running_child& child)
{
    using namespace asio::experimental::awaitable_operators;
    co_await (read_capped(output, into.output, l.output_bytes, into.over_limit, child) &&
        read_tail(errors, into.errors, l.error_bytes, into.errors_truncated) && read_all(status, into.status) &&
        read_channel(channel, into.channel, l.channel_bytes, into.over_limit, child));
}

inline asio::awaitable<void> wall_clock(asio::steady_timer& timer)
{
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

/// bubblewrap's `{"exit-code": N}`, present only when the program started.
inline std::optional<int> exit_code_of(std::string_view status)
{
    std::optional<int> code;
    while(!status.empty())
    {
        std::size_t const end = status.find('\n');
        std::string_view const line = status.substr(0, end);
        status = end == std::string_view::npos ? std::string_view() : status.substr(end + 1);
        boost::system::error_code ec;
        auto const v = boost::json::parse(line, ec);
        if(ec || !v.is_object())
            continue;
        if(auto const* n = v.as_object().if_contains("exit-code"); n && n->is_int64())
            code = static_cast<int>(n->as_int64());
    }
    return code;
}

/// bubblewrap's own complaint (its lines start with "bwrap: "), or the last line it wrote.
inline std::string setup_error(std::string_view errors)
{
    std::string found;
    std::size_t start = 0;
    while(start < errors.size())
    {
        std::size_t const end = std::min(errors.find('\n', start), errors.size());
        std::string_view const line = errors.substr(start, end - start);
        if(line.starts_with("bwrap: ") || line.starts_with("setpriv: ") || line.starts_with("prlimit: "))
            found = line;
        start = end + 1;
    }
    if(found.empty())
        found = errors.empty() ? "it ended before the program started, saying nothing" : std::string(errors);
    return found;
}

inline void release_slot(boost::system::error_code) noexcept {}

} // namespace detail

// --- the runner ----------------------------------------------------------------

struct runner::state
{
    state(boost::asio::any_io_executor executor, options o)
        : how(std::move(o))
        , slots(std::move(executor), how.max_running)
    {
    }

    options how;
    std::string filter;
    int landlock_abi = 0;
    /// A semaphore: a message is a slot taken; the buffer holds `max_running`.
    boost::asio::experimental::concurrent_channel<void(boost::system::error_code)> slots;
    std::atomic<std::size_t> in_flight{0};
    std::atomic<std::size_t> waiting{0};
    // Runs ended, indexed by `ending`; then the refused ones.
    std::array<std::atomic<std::uint64_t>, 5> ended{};
    std::atomic<std::int64_t> busy_microseconds{0};

    void count(ending way, std::chrono::microseconds took) noexcept
    {
        ended[static_cast<std::size_t>(way)].fetch_add(1, std::memory_order_relaxed);
        busy_microseconds.fetch_add(took.count(), std::memory_order_relaxed);
    }
    void count_refused() noexcept { ended[4].fetch_add(1, std::memory_order_relaxed); }
};

namespace detail {

/// Counts a run among those waiting for a slot while it waits.
struct waiting_for_slot
{
    std::atomic<std::size_t>& waiting;
    explicit waiting_for_slot(std::atomic<std::size_t>& count) : waiting(count) { waiting.fetch_add(1); }
    waiting_for_slot(waiting_for_slot const&) = delete;
    waiting_for_slot& operator=(waiting_for_slot const&) = delete;
    ~waiting_for_slot() { waiting.fetch_sub(1); }
};

/// Gives a taken slot back on every way out of a run.
struct slot_guard
{
    runner::state* owner;
    ~slot_guard();
};

} // namespace detail

AGENTIO_DECL std::string_view result::limit_hit() const noexcept
{
    if(how != ending::signaled)
        return {};
    if(signal == SIGXCPU)
        return "cpu time";
    if(signal == SIGXFSZ)
        return "file size";
    return {};
}

AGENTIO_DECL std::string result::describe(limits const& applied) const
{
    auto const bytes = [](std::uint64_t n) {
        if(n >= (1u << 20) && n % (1u << 20) == 0)
            return std::to_string(n >> 20) + " MiB";
        if(n >= 1024 && n % 1024 == 0)
            return std::to_string(n >> 10) + " KiB";
        return std::to_string(n) + " bytes";
    };
    switch(how)
    {
    case ending::exited: return "exited with status " + std::to_string(exit_code);
    case ending::signaled:
        if(signal == SIGXCPU)
            return "was stopped at its CPU time limit (" + std::to_string(applied.cpu_time.count()) + " s)";
        if(signal == SIGXFSZ)
            return "was stopped at its file size limit (" + bytes(applied.file_bytes) + ")";
        return std::string("was killed by signal ") + std::to_string(signal) + " (" +
            (::sigabbrev_np(signal) ? ::sigabbrev_np(signal) : "?") + ")";
    case ending::timed_out:
    {
        auto const ms = applied.wall_time.count();
        return "was stopped after " + (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms") +
            " (its wall-clock limit)";
    }
    case ending::output_limit: return "wrote more than " + bytes(applied.output_bytes) + " of output and was stopped";
    }
    return {};
}

AGENTIO_DECL std::optional<std::string> why_unavailable(options const& how)
{
    struct stat st
    {
    };
    if(::stat(how.bwrap.c_str(), &st) != 0 || ::access(how.bwrap.c_str(), X_OK) != 0)
        return "agentio::sandbox needs bubblewrap (" + how.bwrap.string() + " is missing): apt-get install bubblewrap";
    if(st.st_mode & S_ISUID)
        return "agentio::sandbox refuses a setuid " + how.bwrap.string() +
            ": it changes what the namespaces allow; install Debian's bubblewrap (not setuid)";
    if(::access(how.prlimit.c_str(), X_OK) != 0)
        return "agentio::sandbox needs prlimit (" + how.prlimit.string() + " is missing): apt-get install util-linux";
    if(::geteuid() == 0)
    {
        if(how.run_as == 0)
            return "agentio::sandbox: options::run_as must not be 0: the sandbox's root would be the host's";
        if(::access(how.setpriv.c_str(), X_OK) != 0)
            return "agentio::sandbox needs setpriv (" + how.setpriv.string() +
                " is missing) to run as an unprivileged user: apt-get install util-linux";
    }
    if(how.max_running == 0)
        return "agentio::sandbox: options::max_running must be at least 1";
    bool const launcher = !how.landlock_launcher.empty() && detail::kernel_landlock_abi() > 0;
    if(launcher && ::access(how.landlock_launcher.c_str(), X_OK) != 0)
        return "agentio::sandbox needs " + how.landlock_launcher.string() +
            " to apply Landlock (the kernel has it): apt-get install perl-base, or empty options::landlock_launcher";
    std::string filter;
    try
    {
        filter = detail::seccomp_program();
    }
    catch(unavailable const& e)
    {
        return std::string(e.what());
    }

    // The real thing once: every namespace, the filter, the limits.
    request probe;
    probe.program = "/usr/bin/true";
    probe.limits.wall_time = std::chrono::seconds(10);
    if(launcher)
        probe = detail::through_launcher(how, std::move(probe));
    detail::launched child;
    try
    {
        child = detail::launch(how, filter, probe);
    }
    catch(failure const& e)
    {
        return std::string(e.what());
    }
    std::string errors, status;
    auto drain = [](int fd, std::string& into) {
        char buffer[4096];
        for(;;)
        {
            ssize_t const n = ::read(fd, buffer, sizeof buffer);
            if(n < 0 && errno == EINTR)
                continue;
            if(n <= 0)
                return;
            into.append(buffer, static_cast<std::size_t>(n));
        }
    };
    pollfd ready{child.errors.get(), POLLIN, 0};
    int waited = 0;
    // The pipes end when bubblewrap does; ten seconds is a hung machine.
    while(waited < 10000)
    {
        int const n = ::poll(&ready, 1, 100);
        if(n > 0)
        {
            char buffer[4096];
            ssize_t const got = ::read(child.errors.get(), buffer, sizeof buffer);
            if(got <= 0 && !(got < 0 && errno == EINTR))
                break;
            if(got > 0)
                errors.append(buffer, static_cast<std::size_t>(got));
        }
        else if(n == 0)
            waited += 100;
    }
    detail::kill_and_reap(child.pid);
    drain(child.status.get(), status);
    if(waited >= 10000)
        return "agentio::sandbox: bubblewrap did not finish a trial run of /usr/bin/true in 10 s";
    auto const code = detail::exit_code_of(status);
    if(!code)
    {
        std::string why = "agentio::sandbox: bubblewrap cannot isolate on this machine: " + detail::setup_error(errors);
        if(errors.find("namespace") != std::string::npos)
            why += " (user namespaces must be allowed: sysctl user.max_user_namespaces > 0, and on Debian kernels "
                   "kernel.unprivileged_userns_clone=1; in a container, a seccomp profile that permits unshare)";
        return why;
    }
    if(*code != 0 && errors.find(detail::launcher_refusal) != std::string::npos)
        return "agentio::sandbox: Landlock could not be applied: " + detail::setup_error(errors);
    if(*code != 0)
        return "agentio::sandbox: /usr/bin/true failed in the sandbox (status " + std::to_string(*code) +
            "): " + detail::setup_error(errors);
    return std::nullopt;
}

AGENTIO_DECL runner::runner(boost::asio::any_io_executor executor, options how)
{
    if(auto why = why_unavailable(how))
        throw unavailable(*why);
    state_ = std::make_shared<state>(std::move(executor), std::move(how));
    state_->filter = detail::seccomp_program();
    state_->landlock_abi = detail::kernel_landlock_abi();
}

AGENTIO_DECL runner::~runner() = default;

AGENTIO_DECL options const& runner::settings() const noexcept
{
    return state_->how;
}

AGENTIO_DECL int runner::landlock_abi() const noexcept
{
    return state_->landlock_abi;
}

AGENTIO_DECL std::size_t runner::running() const noexcept
{
    return state_->in_flight.load();
}

AGENTIO_DECL sandbox::statistics runner::statistics() const noexcept
{
    sandbox::statistics s;
    s.running = state_->in_flight.load(std::memory_order_relaxed);
    s.waiting = state_->waiting.load(std::memory_order_relaxed);
    s.exited = state_->ended[static_cast<std::size_t>(ending::exited)].load(std::memory_order_relaxed);
    s.signaled = state_->ended[static_cast<std::size_t>(ending::signaled)].load(std::memory_order_relaxed);
    s.timed_out = state_->ended[static_cast<std::size_t>(ending::timed_out)].load(std::memory_order_relaxed);
    s.output_limit = state_->ended[static_cast<std::size_t>(ending::output_limit)].load(std::memory_order_relaxed);
    s.refused = state_->ended[4].load(std::memory_order_relaxed);
    s.busy = std::chrono::microseconds(state_->busy_microseconds.load(std::memory_order_relaxed));
    return s;
}

AGENTIO_DECL void runner::add_metrics(metrics::registry& registry) const
{
    auto& active = registry.gauge("agentio_sandbox_runs_active", "Sandboxed runs in progress.");
    auto& waiting = registry.gauge("agentio_sandbox_runs_waiting", "Sandboxed runs waiting for a free slot.");
    auto& runs = registry.counter("agentio_sandbox_runs_total",
        "Sandboxed runs ended, by how: exited (any status), signaled, timed_out, output_limit, or refused (no "
        "slot in time, or the sandbox could not start).",
        {"ending"});
    auto& seconds = registry.counter("agentio_sandbox_run_seconds_total",
        "Wall time of the sandboxed runs that ended.");
    // The state, not the runner: a scrape after the runner is gone reads nothing and changes nothing.
    registry.on_collect([watched = std::weak_ptr<state>(state_), &active, &waiting, &runs, &seconds] {
        auto const alive = watched.lock();
        if(!alive)
            return;
        runner::state const& st = *alive;
        active.with().set(static_cast<double>(st.in_flight.load(std::memory_order_relaxed)));
        waiting.with().set(static_cast<double>(st.waiting.load(std::memory_order_relaxed)));
        static constexpr std::string_view names[] = {"exited", "signaled", "timed_out", "output_limit", "refused"};
        for(std::size_t i = 0; i < st.ended.size(); ++i)
            runs.with({names[i]}).set_total(static_cast<double>(st.ended[i].load(std::memory_order_relaxed)));
        seconds.with().set_total(static_cast<double>(st.busy_microseconds.load(std::memory_order_relaxed)) / 1e6);
    });
}

AGENTIO_DECL detail::slot_guard::~slot_guard()
{
    owner->in_flight.fetch_sub(1);
    owner->slots.try_receive(&detail::release_slot);
}

AGENTIO_DECL boost::asio::awaitable<result> runner::run(request what)
{
    namespace asio = boost::asio;
    using namespace asio::experimental::awaitable_operators;
    detail::check(what);
    std::shared_ptr<state> const keep = state_;
    auto executor = co_await asio::this_coro::executor;
    std::string const program = what.program;
    int const walled = what.landlock == landlock_by::launcher && !keep->how.landlock_launcher.empty()
        ? keep->landlock_abi
        : 0;
    if(walled > 0)
    {
        detail::check_program(keep->how, program);
        what = detail::through_launcher(keep->how, std::move(what));
    }

    // A slot: a message in the channel's buffer; a full buffer makes the
    // sender wait, in line.
    boost::system::error_code const taken;
    if(!keep->slots.try_send(taken))
    {
        detail::waiting_for_slot const queued(keep->waiting);
        asio::steady_timer patience(executor, keep->how.max_wait);
        auto const first = co_await (keep->slots.async_send(taken, asio::use_awaitable) ||
            detail::wall_clock(patience));
        if(first.index() == 1)
        {
            keep->count_refused();
            throw failure("agentio::sandbox: no sandbox was free within " + std::to_string(keep->how.max_wait.count()) +
                " ms (" + std::to_string(keep->how.max_running) + " run at once)");
        }
    }
    keep->in_flight.fetch_add(1);
    detail::slot_guard const slot{keep.get()};

    auto const began = std::chrono::steady_clock::now();
    detail::launched started = detail::launch(keep->how, keep->filter, what);
    detail::running_child child(started.pid);
    asio::readable_pipe output(executor, started.output.release());
    asio::readable_pipe errors(executor, started.errors.release());
    asio::readable_pipe status(executor, started.status.release());
    std::optional<asio::readable_pipe> channel;
    if(started.channel)
        channel.emplace(executor, started.channel.release());

    detail::gathered got;
    asio::steady_timer clock(executor, what.limits.wall_time);
    auto const first = co_await (detail::gather(output, errors, status, channel ? &*channel : nullptr, what.limits, got,
                                     child) ||
        detail::wall_clock(clock));
    bool const timed_out = first.index() == 1;
    if(timed_out)
        child.kill();
    co_await child.wait();

    result r;
    r.duration = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began);
    r.output = std::move(got.output);
    r.errors = std::move(got.errors);
    r.channel = std::move(got.channel);
    r.errors_truncated = got.errors_truncated;
    r.landlock_abi = walled;
    if(timed_out)
        r.how = ending::timed_out;
    else if(got.over_limit)
        r.how = ending::output_limit;
    else if(auto const code = detail::exit_code_of(got.status))
    {
        // The shell's encoding: 128 + N for a signal.
        if(*code > 128 && *code < 128 + 65)
        {
            r.how = ending::signaled;
            r.signal = *code - 128;
        }
        else
            r.exit_code = *code;
    }
    else
    {
        keep->count_refused();
        throw failure("agentio::sandbox: the sandbox could not start " + program + ": " +
            detail::setup_error(r.errors));
    }
    if(walled > 0 && r.how == ending::exited && r.exit_code == 127 && r.errors.starts_with(detail::launcher_refusal))
    {
        keep->count_refused();
        throw failure("agentio::sandbox: the sandbox could not start " + program + ": " +
            r.errors.substr(detail::launcher_refusal.size(), r.errors.find('\n') - detail::launcher_refusal.size()));
    }
    keep->count(r.how, r.duration);
    co_return r;
}

namespace detail {

// The snippet runs as __main__ from a file of its own (tracebacks name
// "<code>" and show its lines); the last expression is evaluated apart and
// its repr, or the exception that ended it, goes out on descriptor 3, away
// from what the snippet prints.
inline constexpr char const* python_driver = R"py(import ast, json, linecache, os, sys, traceback
def _report(message):
    try:
        os.write(3, json.dumps(message).encode())
    except OSError:
        pass
def _main():
    with open("/work/.agentio/code.py", encoding="utf-8") as f:
        source = f.read()
    linecache.cache["<code>"] = (len(source), None, source.splitlines(True), "<code>")
    try:
        tree = ast.parse(source, "<code>")
    except SyntaxError as e:
        traceback.print_exception(type(e), e, None)
        _report({"exception": ["SyntaxError", str(e)]})
        sys.exit(1)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    scope = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(compile(tree, "<code>", "exec"), scope)
        value = eval(compile(last, "<code>", "eval"), scope) if last is not None else None
    except SystemExit:
        raise
    except BaseException as e:
        sys.stdout.flush()
        traceback.print_exception(type(e), e, e.__traceback__.tb_next)
        _report({"exception": [type(e).__name__, str(e)[:2000]]})
        sys.stderr.flush()
        os._exit(1)
    sys.stdout.flush()
    _report({} if value is None else {"value": repr(value)[:100000]})
_main()
)py";

} // namespace detail

AGENTIO_DECL std::string python_result::describe(limits const& applied) const
{
    if(exception && exception->first == "MemoryError")
    {
        auto const mib = applied.memory_bytes >> 20;
        return "ran out of memory (limit " +
            (mib % 1024 == 0 ? std::to_string(mib / 1024) + " GiB" : std::to_string(mib) + " MiB") + ")";
    }
    if(exception)
        return "raised " + exception->first + (exception->second.empty() ? "" : ": " + exception->second);
    if(run.succeeded())
        return "completed";
    return run.describe(applied);
}

AGENTIO_DECL boost::asio::awaitable<boost::system::result<boost::json::object, std::string>>
run_python_program(runner& in, python_program what)
{
    request r;
    r.program = std::move(what.interpreter);
    r.arguments = {"-I", "/work/.agentio/program.py"};
    r.files = std::move(what.files);
    r.files.push_back({".agentio/program.py", std::move(what.source)});
    r.executables = std::move(what.executables);
    r.environment = {{"PYTHONDONTWRITEBYTECODE", "1"}, {"OPENBLAS_NUM_THREADS", "1"}};
    r.standard_input = boost::json::serialize(what.input);
    r.result_channel = true;
    r.limits = what.limits;
    std::string refused;
    result got;
    try
    {
        got = co_await in.run(std::move(r));
    }
    catch(sandbox::failure const& e)
    {
        refused = e.what();
    }
    if(!refused.empty())
        co_return "could not start: " + refused;
    boost::system::error_code ec;
    auto answer = boost::json::parse(got.channel, ec);
    if(!ec && answer.is_object())
        co_return std::move(answer.as_object());
    if(got.how == ending::exited)
        co_return "ended without an answer (" + got.describe(what.limits) + ")";
    co_return got.describe(what.limits);
}

AGENTIO_DECL boost::asio::awaitable<python_result> run_python(runner& in, python_request what)
{
    request r;
    r.program = std::move(what.interpreter);
    r.arguments = {"-I", "/work/.agentio/run.py"};
    r.files = std::move(what.files);
    r.files.push_back({".agentio/run.py", detail::python_driver});
    r.files.push_back({".agentio/code.py", std::move(what.code)});
    // Threads for BLAS would only compete for the bounded CPU time; no .pyc
    // in a read-only /usr; a plotting library draws to files.
    r.environment = {{"PYTHONDONTWRITEBYTECODE", "1"}, {"PYTHONIOENCODING", "utf-8"}, {"OPENBLAS_NUM_THREADS", "1"},
        {"MPLBACKEND", "Agg"}};
    r.result_channel = true;
    r.limits = what.limits;
    python_result out;
    out.run = co_await in.run(std::move(r));
    boost::system::error_code ec;
    auto const reported = boost::json::parse(out.run.channel, ec);
    if(!ec && reported.is_object())
    {
        auto const& o = reported.as_object();
        if(auto const* v = o.if_contains("value"); v && v->is_string())
            out.value = std::string(v->as_string());
        if(auto const* e = o.if_contains("exception"); e && e->is_array() && e->as_array().size() == 2 &&
            e->as_array()[0].is_string() && e->as_array()[1].is_string())
            out.exception.emplace(e->as_array()[0].as_string(), e->as_array()[1].as_string());
    }
    co_return out;
}

} // namespace agentio::sandbox

#endif
