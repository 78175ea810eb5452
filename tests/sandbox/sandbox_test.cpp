// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// agentio::sandbox against the real bubblewrap, seccomp and kernel limits:
// what a run reports (sandbox_runs), and attempts to escape, each contained
// while this process goes on serving (sandbox_escapes). The programs are
// Debian's python3, as the platform's tools run it.

#define BOOST_TEST_MODULE agentio_sandbox_tests
#include <agentio/metrics.hpp>
#include <agentio/sandbox.hpp>

#include "run_on.hpp"
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

namespace asio = boost::asio;
namespace json = boost::json;
namespace sandbox = agentio::sandbox;
using namespace std::chrono_literals;

namespace {

constexpr char const* python = "/usr/bin/python3";

sandbox::request python_request(std::string code, sandbox::limits l = {})
{
    sandbox::request r;
    r.program = python;
    r.arguments = {"-I", "main.py"};
    r.files = {{"main.py", std::move(code)}};
    r.limits = l;
    // Under Landlock only these may be executed besides python3: the shells some runs leave behind.
    r.executables = {"/bin/sh", "/usr/bin/sleep"};
    return r;
}

asio::awaitable<sandbox::result> run_one(sandbox::runner& runner, sandbox::request r)
{
    co_return co_await runner.run(std::move(r));
}

/// One run to its end on `ioc`, which may have run out of work before.
sandbox::result run_request(asio::io_context& ioc, sandbox::runner& runner, sandbox::request r,
    std::chrono::seconds limit = 60s)
{
    ioc.restart();
    return agentio_test::run_on(ioc, run_one(runner, std::move(r)), limit);
}

sandbox::result run_python(asio::io_context& ioc, sandbox::runner& runner, std::string code, sandbox::limits l = {})
{
    return run_request(ioc, runner, python_request(std::move(code), l));
}

json::object json_output(sandbox::result const& r)
{
    BOOST_TEST_INFO("stdout: " << r.output << "\nstderr: " << r.errors);
    BOOST_TEST_REQUIRE(r.succeeded());
    return json::parse(r.output).as_object();
}

std::string unique_marker()
{
    std::random_device rd;
    return "agentio-sandbox-marker-" + std::to_string(rd()) + std::to_string(rd());
}

/// Whether any process on the host has `marker` in its command line.
bool host_process_with(std::string const& marker)
{
    for(auto const& entry : std::filesystem::directory_iterator("/proc"))
    {
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if(line.find(marker) != std::string::npos)
            return true;
    }
    return false;
}

/// Waits up to `patience` for every process carrying `marker` to be gone.
bool gone_within(std::string const& marker, std::chrono::milliseconds patience)
{
    auto const until = std::chrono::steady_clock::now() + patience;
    while(host_process_with(marker))
    {
        if(std::chrono::steady_clock::now() > until)
            return false;
        std::this_thread::sleep_for(20ms);
    }
    return true;
}

struct fixture
{
    asio::io_context ioc;
    sandbox::runner runner{ioc.get_executor()};
};

} // namespace

BOOST_AUTO_TEST_SUITE(sandbox_runs)

BOOST_FIXTURE_TEST_CASE(output_status_input_files_and_the_channel, fixture)
{
    auto r = python_request(R"py(
import os, sys
data = sys.stdin.read()
with open("data/table.csv") as f:
    table = f.read()
print("read", len(data), "and", table.strip())
print("oops", file=sys.stderr)
os.write(3, b'{"answer": 42}')
sys.exit(3)
)py");
    r.standard_input = std::string(100000, 'x');
    r.files.push_back({"data/table.csv", "a,b\n1,2\n"});
    r.result_channel = true;
    auto const got = run_request(ioc, runner, r);
    BOOST_TEST(static_cast<int>(got.how) == static_cast<int>(sandbox::ending::exited));
    BOOST_TEST(got.exit_code == 3);
    BOOST_TEST(got.output == "read 100000 and a,b\n1,2\n");
    BOOST_TEST(got.errors == "oops\n");
    BOOST_TEST(got.channel == R"({"answer": 42})");
    BOOST_TEST(got.describe(r.limits) == "exited with status 3");
    BOOST_TEST(got.duration.count() > 0);
}

BOOST_FIXTURE_TEST_CASE(the_files_given_are_read_only, fixture)
{
    auto r = python_request(R"py(
import json, os
out = {}
try:
    open("given.txt", "a").write("more")
    out["given"] = "written"
except OSError as e:
    out["given"] = e.errno
open("scratch.txt", "w").write("mine")
out["scratch"] = open("scratch.txt").read()
print(json.dumps(out))
)py");
    r.files.push_back({"given.txt", "theirs"});
    auto const got = json_output(run_request(ioc, runner, r));
    BOOST_TEST(got.at("given").as_int64() == 30); // EROFS
    BOOST_TEST(got.at("scratch").as_string() == "mine");
}

BOOST_FIXTURE_TEST_CASE(a_clean_environment_and_only_its_own_descriptors, fixture)
{
    ::setenv("AGENTIO_SANDBOX_TEST_SECRET", "hunter2", 1);
    // A descriptor this process opened without close-on-exec, at a number nothing else uses.
    int const opened = ::open("/dev/null", O_RDONLY);
    BOOST_TEST_REQUIRE(opened >= 0);
    int const stray = ::dup2(opened, 77);
    ::close(opened);
    BOOST_TEST_REQUIRE(stray == 77);
    auto r = python_request(R"py(
import json, os
print(json.dumps({"environ": dict(os.environ), "init": open("/proc/1/environ", "rb").read().decode(),
                  "fds": sorted(int(f) for f in os.listdir("/proc/self/fd")), "pids": sorted(
                  int(p) for p in os.listdir("/proc") if p.isdigit())}))
)py");
    r.environment = {{"GREETING", "hola"}};
    // The namespaces' wall alone: under Landlock /proc/1 is out of reach anyway (outside the domain).
    r.landlock = sandbox::landlock_by::nobody;
    auto const got = json_output(run_request(ioc, runner, r));
    ::close(stray);
    ::unsetenv("AGENTIO_SANDBOX_TEST_SECRET");
    auto const& environ = got.at("environ").as_object();
    BOOST_TEST(!environ.contains("AGENTIO_SANDBOX_TEST_SECRET"));
    BOOST_TEST(environ.at("GREETING").as_string() == "hola");
    BOOST_TEST(environ.at("HOME").as_string() == "/work");
    BOOST_TEST(got.at("init").as_string() == "");
    // 0, 1, 2 and the one listdir opened: nothing of this process's.
    auto const& fds = got.at("fds").as_array();
    BOOST_TEST(fds.size() == 4u);
    BOOST_TEST(fds[3].as_int64() < 10);
    // Its own pid namespace: bubblewrap's init and the program.
    BOOST_TEST(json::serialize(got.at("pids")) == "[1,2]");
}

BOOST_FIXTURE_TEST_CASE(a_flood_of_output_is_stopped_at_the_limit, fixture)
{
    sandbox::limits l;
    l.output_bytes = 64 * 1024;
    l.error_bytes = 1000;
    auto const got = run_python(ioc, runner, R"py(
import sys
sys.stderr.write("e" * 100000 + "the end\n")
sys.stderr.flush()
while True:
    sys.stdout.write("x" * 65536)
)py",
        l);
    BOOST_TEST(static_cast<int>(got.how) == static_cast<int>(sandbox::ending::output_limit));
    BOOST_TEST(got.output.size() == l.output_bytes);
    BOOST_TEST(got.errors.size() <= l.error_bytes);
    BOOST_TEST(got.errors_truncated);
    BOOST_TEST(got.errors.ends_with("the end\n"));
    BOOST_TEST(got.describe(l) == "wrote more than 64 KiB of output and was stopped");
}

BOOST_FIXTURE_TEST_CASE(runs_beyond_the_bound_wait_in_line_or_give_up, fixture)
{
    sandbox::options o;
    o.max_running = 1;
    o.max_wait = 300ms;
    sandbox::runner one(ioc.get_executor(), o);
    sandbox::result first, second;
    std::string refused;
    int done = 0;
    auto collect = [&](sandbox::result& into) {
        return [&](std::exception_ptr e, sandbox::result r) {
            ++done;
            if(e)
            {
                try
                {
                    std::rethrow_exception(e);
                }
                catch(sandbox::failure const& f)
                {
                    refused = f.what();
                }
            }
            else
                into = std::move(r);
        };
    };
    asio::co_spawn(ioc, run_one(one, python_request("import time; time.sleep(1.5); print('first')")), collect(first));
    asio::co_spawn(ioc, run_one(one, python_request("print('second')")), collect(second));
    std::size_t most_waiting = 0;
    while(done < 2 && ioc.run_one_for(30s))
        most_waiting = std::max(most_waiting, one.statistics().waiting);
    BOOST_TEST(first.output == "first\n");
    BOOST_TEST(second.output.empty());
    BOOST_TEST(refused.find("no sandbox was free within 300 ms (1 run at once)") != std::string::npos, refused);

    // What it did, as the runner counts it and as a scrape shows it.
    auto const seen = one.statistics();
    BOOST_TEST(most_waiting == 1u);
    BOOST_TEST(seen.waiting == 0u);
    BOOST_TEST(seen.running == 0u);
    BOOST_TEST(seen.exited == 1u);
    BOOST_TEST(seen.refused == 1u);
    BOOST_TEST(seen.signaled + seen.timed_out + seen.output_limit == 0u);
    BOOST_TEST(seen.busy >= 1500ms);
    agentio::metrics::registry registry({.process_metrics = false});
    one.add_metrics(registry);
    auto const scraped = registry.expose();
    BOOST_TEST(scraped.find("agentio_sandbox_runs_total{ending=\"exited\"} 1\n") != std::string::npos, scraped);
    BOOST_TEST(scraped.find("agentio_sandbox_runs_total{ending=\"refused\"} 1\n") != std::string::npos, scraped);
    BOOST_TEST(scraped.find("agentio_sandbox_runs_total{ending=\"timed_out\"} 0\n") != std::string::npos, scraped);
    BOOST_TEST(scraped.find("agentio_sandbox_runs_active 0\n") != std::string::npos, scraped);
    BOOST_TEST(scraped.find("agentio_sandbox_run_seconds_total ") != std::string::npos, scraped);
    BOOST_TEST(scraped.find("agentio_sandbox_run_seconds_total 0\n") == std::string::npos, scraped);

    // With patience, the second waits for the first's slot and runs.
    o.max_wait = 30s;
    sandbox::runner patient(ioc.get_executor(), o);
    done = 0;
    first = second = {};
    ioc.restart();
    asio::co_spawn(ioc, run_one(patient, python_request("import time; time.sleep(0.5); print('first')")),
        collect(first));
    asio::co_spawn(ioc, run_one(patient, python_request("print('second')")), collect(second));
    while(done < 2 && ioc.run_one_for(30s))
        ;
    BOOST_TEST(first.output == "first\n");
    BOOST_TEST(second.output == "second\n");
    BOOST_TEST(patient.running() == 0u);
}

BOOST_FIXTURE_TEST_CASE(cancelling_a_run_kills_its_tree, fixture)
{
    auto const marker = unique_marker();
    asio::cancellation_signal cancel;
    std::exception_ptr ended;
    bool finished = false;
    asio::co_spawn(ioc,
        run_one(runner,
            python_request("import subprocess, time\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 300; : " + marker +
                "'])\ntime.sleep(300)\n")),
        asio::bind_cancellation_slot(cancel.slot(), [&](std::exception_ptr e, sandbox::result) {
            ended = e;
            finished = true;
        }));
    asio::steady_timer later(ioc, 1s);
    later.async_wait([&](boost::system::error_code) { cancel.emit(asio::cancellation_type::terminal); });
    while(!finished && ioc.run_one_for(30s))
        ;
    BOOST_TEST_REQUIRE(finished);
    BOOST_TEST(static_cast<bool>(ended));
    BOOST_TEST(gone_within(marker, 3s));
}

BOOST_FIXTURE_TEST_CASE(any_program_is_walled_by_landlock_through_the_launcher, fixture)
{
    // A shell copies a program into its writable folder and runs it, and runs one it was not given.
    sandbox::request r;
    r.program = "/bin/sh";
    r.arguments = {"-c",
        "cat /usr/bin/true > /work/copy && chmod +x /work/copy && /work/copy; echo copy=$?; "
        "/usr/bin/ls / > /dev/null; echo ls=$?; echo note > /work/note && cat /work/note; echo \"$PERL5OPT\""};
    r.executables = {"/usr/bin/cat", "/usr/bin/chmod", "/usr/bin/no-such-tool"};
    // For the program: Perl, the launcher, never sees it (it would fail to load the module).
    r.environment = {{"PERL5OPT", "-Mno::such::module"}};
    auto const walled = run_request(ioc, runner, r);
    BOOST_TEST_INFO(walled.errors);
    BOOST_TEST_REQUIRE(static_cast<int>(walled.how) == static_cast<int>(sandbox::ending::exited));
    if(runner.landlock_abi() >= 1)
    {
        BOOST_TEST(walled.landlock_abi == runner.landlock_abi());
        BOOST_TEST(walled.output == "copy=126\nls=126\nnote\n-Mno::such::module\n");
    }
    else
        BOOST_TEST_MESSAGE("this kernel has no Landlock: the namespaces and the filter are the walls");

    r.landlock = sandbox::landlock_by::nobody;
    auto const open = run_request(ioc, runner, r);
    BOOST_TEST_INFO(open.errors);
    BOOST_TEST(open.landlock_abi == 0);
    BOOST_TEST(open.output == "copy=0\nls=0\nnote\n-Mno::such::module\n");
}

BOOST_FIXTURE_TEST_CASE(a_malformed_request_names_its_field, fixture)
{
    auto refused = [&](sandbox::request r, std::string const& expected) {
        try
        {
            run_request(ioc, runner, std::move(r), 10s);
            BOOST_TEST(false, "accepted");
        }
        catch(std::invalid_argument const& e)
        {
            BOOST_TEST(std::string(e.what()).find(expected) != std::string::npos, e.what());
        }
    };
    sandbox::request relative;
    relative.program = "python3";
    refused(relative, "sandbox::request::program");
    auto escape = python_request("print(1)");
    escape.files.push_back({"../etc/passwd", "x"});
    refused(escape, "sandbox::request::files[1].path '../etc/passwd'");
    auto twice = python_request("print(1)");
    twice.files.push_back({"main.py", "x"});
    refused(twice, "'main.py' given twice");
    auto bad_name = python_request("print(1)");
    bad_name.environment = {{"A=B", "c"}};
    refused(bad_name, "sandbox::request::environment");
    auto bad_executable = python_request("print(1)");
    bad_executable.executables = {"sh"};
    refused(bad_executable, "sandbox::request::executables: 'sh'");
}

BOOST_FIXTURE_TEST_CASE(a_program_that_cannot_start_is_a_failure_with_bubblewraps_reason, fixture)
{
    sandbox::request r;
    r.program = "/usr/bin/no-such-program";
    try
    {
        run_request(ioc, runner, r, 10s);
        BOOST_TEST(false, "it ran");
    }
    catch(sandbox::failure const& e)
    {
        BOOST_TEST(std::string(e.what()).find("no-such-program") != std::string::npos, e.what());
    }
}

BOOST_AUTO_TEST_CASE(a_machine_that_cannot_isolate_is_refused_with_what_is_missing)
{
    asio::io_context ioc;
    sandbox::options o;
    o.bwrap = "/nonexistent/bwrap";
    BOOST_CHECK_EXCEPTION(sandbox::runner(ioc.get_executor(), o), sandbox::unavailable,
        [](sandbox::unavailable const& e) {
            return std::string(e.what()).find("needs bubblewrap (/nonexistent/bwrap is missing)") != std::string::npos;
        });
    if(::geteuid() == 0)
    {
        sandbox::options as_root;
        as_root.run_as = 0;
        auto const why = sandbox::why_unavailable(as_root);
        BOOST_TEST_REQUIRE(why.has_value());
        BOOST_TEST(why->find("run_as must not be 0") != std::string::npos);
    }
    BOOST_TEST(!sandbox::why_unavailable({}).has_value());

    // A kernel without unprivileged user namespaces, as bubblewrap reports it: its words and what to change.
    auto const folder = std::filesystem::temp_directory_path() / unique_marker();
    std::filesystem::create_directories(folder);
    std::filesystem::permissions(folder,
        std::filesystem::perms::all & ~std::filesystem::perms::group_write & ~std::filesystem::perms::others_write);
    auto const refusing = folder / "bwrap";
    std::ofstream(refusing) << "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace, likely because the "
                               "kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n";
    std::filesystem::permissions(refusing,
        std::filesystem::perms::owner_all | std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
            std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
    sandbox::options no_userns;
    no_userns.bwrap = refusing;
    auto const refused = sandbox::why_unavailable(no_userns);
    std::filesystem::remove_all(folder);
    BOOST_TEST_REQUIRE(refused.has_value());
    BOOST_TEST(refused->find("bubblewrap cannot isolate on this machine: bwrap: No permissions to create a new "
                             "namespace") != std::string::npos,
        *refused);
    BOOST_TEST(refused->find("user namespaces must be allowed") != std::string::npos, *refused);

    if(::syscall(444 /* landlock_create_ruleset */, nullptr, 0, 1u /* VERSION */) >= 1)
    {
        sandbox::options no_launcher;
        no_launcher.landlock_launcher = "/nonexistent/perl";
        auto const why = sandbox::why_unavailable(no_launcher);
        BOOST_TEST_REQUIRE(why.has_value());
        BOOST_TEST(why->find("needs /nonexistent/perl to apply Landlock") != std::string::npos, *why);
        no_launcher.landlock_launcher.clear(); // a choice: no Landlock for runs asking the launcher
        BOOST_TEST(!sandbox::why_unavailable(no_launcher).has_value());
    }
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

asio::awaitable<sandbox::python_result> python_of(sandbox::runner& runner, sandbox::python_request r)
{
    co_return co_await sandbox::run_python(runner, std::move(r));
}

sandbox::python_result snippet(asio::io_context& ioc, sandbox::runner& runner, std::string code,
    std::vector<sandbox::input_file> files = {}, sandbox::limits l = {})
{
    ioc.restart();
    return agentio_test::run_on(ioc, python_of(runner, {std::move(code), std::move(files), l}), 60s);
}

} // namespace

BOOST_AUTO_TEST_SUITE(sandbox_python)

BOOST_FIXTURE_TEST_CASE(the_last_expression_is_the_value_as_in_a_notebook, fixture)
{
    auto const got = snippet(ioc, runner, "import statistics\nprint('computing')\nstatistics.mean([1, 2, 3, 4])\n");
    BOOST_TEST(got.run.succeeded());
    BOOST_TEST(got.run.output == "computing\n");
    BOOST_TEST(got.value.value_or("none") == "2.5");
    BOOST_TEST(!got.exception.has_value());
    BOOST_TEST(got.describe({}) == "completed");

    auto const none = snippet(ioc, runner, "x = 1\nprint(x)\n");
    BOOST_TEST(!none.value.has_value());
    BOOST_TEST(none.run.output == "1\n");
}

BOOST_FIXTURE_TEST_CASE(an_exception_is_named_with_a_traceback_of_the_snippets_own_lines, fixture)
{
    auto const got = snippet(ioc, runner, "def f(x):\n    return 1 / x\n\nf(0)\n");
    BOOST_TEST(got.run.exit_code == 1);
    BOOST_TEST_REQUIRE(got.exception.has_value());
    BOOST_TEST(got.exception->first == "ZeroDivisionError");
    BOOST_TEST(got.describe({}) == "raised ZeroDivisionError: division by zero");
    BOOST_TEST(got.run.errors.find("File \"<code>\", line 2, in f") != std::string::npos, got.run.errors);
    BOOST_TEST(got.run.errors.find("return 1 / x") != std::string::npos, got.run.errors);
    BOOST_TEST(got.run.errors.find("run.py") == std::string::npos, got.run.errors);

    auto const syntax = snippet(ioc, runner, "print(\n");
    BOOST_TEST_REQUIRE(syntax.exception.has_value());
    BOOST_TEST(syntax.exception->first == "SyntaxError");

    sandbox::limits l;
    l.memory_bytes = 512 << 20;
    auto const memory = snippet(ioc, runner, "x = bytearray(10 * 2**30)\n", {}, l);
    BOOST_TEST(memory.describe(l) == "ran out of memory (limit 512 MiB)");
}

BOOST_FIXTURE_TEST_CASE(debians_numpy_and_sympy_and_the_files_given, fixture)
{
    auto const got = snippet(ioc, runner, R"py(
import numpy, sympy
x = sympy.symbols("x")
rows = [line.split(",") for line in open("sales.csv").read().split()[1:]]
(sympy.solve(x**2 - 5*x + 6, x), float(numpy.mean([float(r[1]) for r in rows])))
)py",
        {{"sales.csv", "region,amount\nnorth,10\nsouth,20\n"}});
    BOOST_TEST_INFO(got.run.errors);
    BOOST_TEST(got.run.succeeded());
    BOOST_TEST(got.value.value_or("none") == "([2, 3], 15.0)");
}

BOOST_FIXTURE_TEST_CASE(landlock_is_a_second_wall_where_the_kernel_has_it, fixture)
{
    long const abi = ::syscall(444 /* landlock_create_ruleset */, nullptr, 0, 1u /* VERSION */);
    auto const got = snippet(ioc, runner, R"py(
import json, os, subprocess, sys
out = {}
try:
    subprocess.run(["/bin/sh", "-c", "true"])
    out["shell"] = "ran"
except OSError as e:
    out["shell"] = e.errno
out["python"] = subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True).stdout.decode()
open("/work/mine.txt", "w").write("ok")
out["write"] = open("/work/mine.txt").read()
print(json.dumps(out))
)py");
    BOOST_TEST_INFO(got.run.errors);
    BOOST_TEST_REQUIRE(got.run.succeeded());
    auto const out = json::parse(got.run.output).as_object();
    BOOST_TEST(out.at("python").as_string() == "42\n");
    BOOST_TEST(out.at("write").as_string() == "ok");
    if(abi >= 1)
    {
        BOOST_TEST(got.run.landlock_abi == abi);
        BOOST_TEST(out.at("shell").as_int64() == EACCES); // only the interpreter may be executed
    }
    else
    {
        BOOST_TEST(got.run.landlock_abi == 0);
        BOOST_TEST_MESSAGE("this kernel has no Landlock: the namespaces and the filter are the walls");
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sandbox_escapes)

BOOST_FIXTURE_TEST_CASE(nothing_of_the_host_is_readable, fixture)
{
    // A database and a key file of "the server", where the server keeps them.
    auto const folder = std::filesystem::temp_directory_path() / unique_marker();
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "threads.db") << "SQLite format 3 TOPSECRET";
    std::ofstream(folder / "server.key") << "-----BEGIN PRIVATE KEY-----";
    auto const here = std::filesystem::current_path().string();
    // The namespaces' wall alone (Landlock, the second, would not even let it list "/").
    auto unwalled = python_request(
        R"py(
import json, os
paths = ["/etc/shadow", "/etc/passwd", "/root", "/home", "/var/lib/postgresql", ")py" +
        (folder / "threads.db").string() + "\", \"" + (folder / "server.key").string() + "\", \"" + here +
        R"py(", "/proc/)py" + std::to_string(::getpid()) +
        R"py(/environ"]
seen = {}
for p in paths:
    try:
        with open(p, "rb") as f:
            seen[p] = "read " + str(len(f.read()))
    except OSError as e:
        seen[p] = e.errno
print(json.dumps({"seen": seen, "root": sorted(os.listdir("/"))}))
)py");
    unwalled.landlock = sandbox::landlock_by::nobody;
    auto const got = json_output(run_request(ioc, runner, unwalled));
    std::filesystem::remove_all(folder);
    for(auto const& [path, outcome] : got.at("seen").as_object())
    {
        BOOST_TEST_INFO(path);
        // ENOENT, or EISDIR for a folder bound nowhere: never read.
        BOOST_TEST(outcome.is_int64());
        BOOST_TEST((outcome.as_int64() == ENOENT), json::serialize(outcome));
    }
    BOOST_TEST(json::serialize(got.at("root")) ==
        R"(["bin","dev","etc","lib","lib64","proc","sbin","tmp","usr","work"])");
}

BOOST_FIXTURE_TEST_CASE(no_socket_reaches_anything_not_even_this_servers_port, fixture)
{
    asio::ip::tcp::acceptor server(ioc, {asio::ip::make_address("127.0.0.1"), 0});
    server.non_blocking(true);
    auto const port = server.local_endpoint().port();
    auto const got = json_output(run_python(ioc, runner,
        R"py(
import json, socket
out = {}
for name, family, address in [("inet", socket.AF_INET, ("127.0.0.1", )py" +
            std::to_string(port) +
            R"py()),
                              ("inet6", socket.AF_INET6, ("::1", 80)), ("netlink", socket.AF_NETLINK, None),
                              ("packet", socket.AF_PACKET, None)]:
    try:
        s = socket.socket(family, socket.SOCK_STREAM if address else socket.SOCK_RAW)
        s.connect(address) if address else None
        out[name] = "open"
    except OSError as e:
        out[name] = e.errno
a, b = socket.socketpair()
out["unix_pair"] = "ok"
print(json.dumps(out))
)py"));
    for(char const* family : {"inet", "inet6", "netlink", "packet"})
    {
        BOOST_TEST_INFO(family);
        BOOST_TEST(got.at(family).as_int64() == EAFNOSUPPORT);
    }
    BOOST_TEST(got.at("unix_pair").as_string() == "ok");
    boost::system::error_code ec;
    asio::ip::tcp::socket nobody(ioc);
    server.accept(nobody, ec);
    BOOST_TEST(ec == asio::error::would_block); // nothing ever connected
}

BOOST_FIXTURE_TEST_CASE(kernel_interfaces_a_computation_never_needs_are_refused, fixture)
{
    auto const got = json_output(run_python(ioc, runner, R"py(
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
def errno_of(rc):
    return ctypes.get_errno() if rc == -1 else "allowed"
out = {}
out["ptrace_init"] = errno_of(libc.ptrace(16, 1, 0, 0))            # PTRACE_ATTACH to bubblewrap's init
out["unshare_user"] = errno_of(libc.unshare(0x10000000))            # CLONE_NEWUSER
out["mount"] = errno_of(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None))
out["bpf"] = errno_of(libc.syscall(321, 0, 0, 0))
out["io_uring_setup"] = errno_of(libc.syscall(425, 1, None))
out["keyctl"] = errno_of(libc.syscall(250, 0, 0, 0, 0, 0))
try:
    open("/proc/sys/kernel/printk_ratelimit", "w").write("5")
    out["sysctl"] = "written"
except OSError as e:
    out["sysctl"] = e.errno
for path in ["/usr/evil", "/evil", "/etc/evil"]:
    try:
        open(path, "w")
        out[path] = "written"
    except OSError as e:
        out[path] = e.errno
print(json.dumps(out))
)py"));
    for(char const* call : {"ptrace_init", "unshare_user", "mount", "bpf", "io_uring_setup", "keyctl"})
    {
        BOOST_TEST_INFO(call);
        BOOST_TEST(got.at(call).as_int64() == EPERM);
    }
    BOOST_TEST((got.at("sysctl").as_int64() == EROFS || got.at("sysctl").as_int64() == EACCES));
    for(char const* path : {"/usr/evil", "/evil", "/etc/evil"})
    {
        BOOST_TEST_INFO(path);
        BOOST_TEST(got.at(path).as_int64() == EROFS);
    }
}

BOOST_FIXTURE_TEST_CASE(a_fork_bomb_meets_the_process_limit, fixture)
{
    sandbox::limits l;
    l.processes = 32;
    auto const marker = unique_marker();
    auto const got = json_output(run_python(ioc, runner,
        R"py(
import json, os, sys, time
n = 0
try:
    while True:
        if os.fork() == 0:
            sys.argv[0] = ")py" +
            marker + R"py("
            time.sleep(300)
            os._exit(0)
        n += 1
except OSError as e:
    print(json.dumps({"forks": n, "errno": e.errno}))
)py",
        l));
    BOOST_TEST(got.at("errno").as_int64() == EAGAIN);
    BOOST_TEST(got.at("forks").as_int64() < 32);
    BOOST_TEST(gone_within(marker, 3s));
}

BOOST_FIXTURE_TEST_CASE(ten_gigabytes_of_memory_or_of_file_are_refused, fixture)
{
    auto const memory = run_python(ioc, runner, "x = bytearray(10 * 2**30)\n");
    BOOST_TEST(memory.exit_code == 1);
    BOOST_TEST(memory.errors.find("MemoryError") != std::string::npos, memory.errors);

    sandbox::limits l;
    l.work_bytes = 32 << 20;
    auto const got = json_output(run_python(ioc, runner, R"py(
import json
out = {}
for path in ["/work/big", "/tmp/big", "/dev/shm/big"]:
    try:
        with open(path, "wb") as f:
            chunk = b"\0" * (1 << 20)
            for _ in range(10 * 1024):
                f.write(chunk)
        out[path] = "written"
    except OSError as e:
        out[path] = e.errno
print(json.dumps(out))
)py",
        l));
    for(auto const& [path, outcome] : got)
    {
        BOOST_TEST_INFO(path);
        // ENOSPC where the folder fills first, EFBIG where the file size limit comes first.
        BOOST_TEST((outcome.as_int64() == ENOSPC || outcome.as_int64() == EFBIG), json::serialize(outcome));
    }
}

BOOST_FIXTURE_TEST_CASE(a_spinning_loop_meets_the_cpu_limit_and_a_sleeping_one_the_wall_clock, fixture)
{
    sandbox::limits l;
    l.cpu_time = 1s;
    auto const spinning = run_python(ioc, runner, "while True:\n    pass\n", l);
    BOOST_TEST(static_cast<int>(spinning.how) == static_cast<int>(sandbox::ending::signaled));
    BOOST_TEST(spinning.signal == SIGXCPU);
    BOOST_TEST(spinning.limit_hit() == "cpu time");
    BOOST_TEST(spinning.describe(l) == "was stopped at its CPU time limit (1 s)");

    sandbox::limits w;
    w.wall_time = 1500ms;
    auto const marker = unique_marker();
    auto const sleeping = run_python(ioc, runner,
        "import subprocess, time\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 300; : " + marker +
            "'], start_new_session=True)\ntime.sleep(300)\n",
        w);
    BOOST_TEST(static_cast<int>(sleeping.how) == static_cast<int>(sandbox::ending::timed_out));
    BOOST_TEST(sleeping.duration >= 1500ms);
    BOOST_TEST(sleeping.duration < 5s);
    BOOST_TEST(sleeping.describe(w) == "was stopped after 1500 ms (its wall-clock limit)");
    BOOST_TEST(gone_within(marker, 3s));
}

BOOST_FIXTURE_TEST_CASE(a_shell_left_behind_does_not_outlive_the_run, fixture)
{
    auto const marker = unique_marker();
    auto const got = run_python(ioc, runner,
        "import subprocess\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 300; : " + marker +
            "'], start_new_session=True)\nprint('left')\n");
    BOOST_TEST(got.output == "left\n");
    BOOST_TEST(gone_within(marker, 3s));
}

BOOST_FIXTURE_TEST_CASE(the_server_keeps_serving_while_hostile_runs_go_on, fixture)
{
    sandbox::options o;
    o.max_running = 8;
    sandbox::runner many(ioc.get_executor(), o);
    sandbox::limits l;
    l.cpu_time = 2s;
    l.processes = 32;
    int hostile_done = 0;
    auto count = [&](std::exception_ptr, sandbox::result) { ++hostile_done; };
    for(char const* code : {"while True:\n    pass\n", "x = bytearray(10 * 2**30)\n",
            "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
            "import time\ntime.sleep(2)\n"})
        asio::co_spawn(ioc, run_one(many, python_request(code, l)), count);

    // Meanwhile a timer keeps its time and an ordinary run answers.
    std::chrono::milliseconds worst{0};
    int ticks = 0;
    asio::steady_timer tick(ioc);
    std::function<void()> arm = [&] {
        auto const due = std::chrono::steady_clock::now() + 20ms;
        tick.expires_at(due);
        tick.async_wait([&, due](boost::system::error_code ec) {
            if(ec)
                return;
            worst = std::max(worst,
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - due));
            if(++ticks < 50)
                arm();
        });
    };
    arm();
    sandbox::result ordinary;
    bool answered = false;
    asio::co_spawn(ioc, run_one(many, python_request("print(6 * 7)")), [&](std::exception_ptr e, sandbox::result r) {
        BOOST_TEST(!static_cast<bool>(e));
        ordinary = std::move(r);
        answered = true;
    });
    while((hostile_done < 4 || ticks < 50 || !answered) && ioc.run_one_for(30s))
        ;
    BOOST_TEST(answered);
    BOOST_TEST(ordinary.output == "42\n");
    BOOST_TEST(hostile_done == 4);
    BOOST_TEST(worst < 500ms, "the event loop stalled " << worst.count() << " ms");
}

BOOST_AUTO_TEST_SUITE_END()
