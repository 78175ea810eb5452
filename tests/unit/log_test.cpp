// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Structured logs: the lines as text and as JSON (escaped, secrets never
// written), the settings from the environment, files rotated by size, a file
// that cannot be opened, and a queue that drops rather than waits.
#include <agentio/log.hpp>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

namespace alog = agentio::log; // not "log": that is the logarithm
namespace json = boost::json;

namespace {

agentio::environment_lookup lookup_of(std::map<std::string, std::string> vars)
{
    return [vars = std::move(vars)](char const* name) -> std::optional<std::string> {
        auto const it = vars.find(name);
        if(it == vars.end() || it->second.empty())
            return std::nullopt;
        return it->second;
    };
}

struct temp_dir
{
    std::filesystem::path path = std::filesystem::temp_directory_path() /
        ("agentio-log-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
    temp_dir() { std::filesystem::create_directories(path); }
    ~temp_dir() { std::filesystem::remove_all(path); }
};

std::vector<std::string> lines_of(std::filesystem::path const& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for(std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// 2026-11-29T13:00:00.123Z
constexpr std::int64_t noon = 1795957200123;

} // namespace

BOOST_AUTO_TEST_SUITE(structured_log)

BOOST_AUTO_TEST_CASE(a_text_line_is_one_line_whatever_its_values)
{
    alog::context const about{.request_id = "req-1", .user = "ana", .session = {}, .thread = {}, .run = {}};
    auto const line = alog::format_line(alog::format::text, noon, alog::level::info, "agentio-platform", "http.request",
        &about,
        {{"method", "POST"}, {"path", "/v1/chat/completions"}, {"status", 200}, {"duration_ms", 3.5},
            {"question", "hola\nINFO forged line"}, {"empty", ""}, {"api_key", "sk-123"}, {"ok", true}});
    BOOST_TEST(line ==
        "2026-11-29T13:00:00.123Z INFO agentio-platform http.request request_id=req-1 user=ana method=POST "
        "path=/v1/chat/completions status=200 duration_ms=3.5 question=\"hola\\nINFO forged line\" empty=\"\" "
        "api_key=[redacted] ok=true");
    BOOST_TEST(line.find('\n') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_json_line_is_one_object)
{
    alog::context const about{.request_id = {}, .user = {}, .session = "s-1", .thread = {}, .run = "r-9"};
    auto const line = alog::format_line(alog::format::json, noon, alog::level::warn, "agentio-facturas", "tool.call",
        &about, {{"tool", "sql_query"}, {"error", "no such \"column\"\n"}, {"Authorization", "Bearer x"}});
    BOOST_TEST(line.find('\n') == std::string::npos);
    auto const o = json::parse(line).as_object();
    BOOST_TEST(o.at("time").as_string() == "2026-11-29T13:00:00.123Z");
    BOOST_TEST(o.at("level").as_string() == "warn");
    BOOST_TEST(o.at("program").as_string() == "agentio-facturas");
    BOOST_TEST(o.at("event").as_string() == "tool.call");
    BOOST_TEST(o.at("session").as_string() == "s-1");
    BOOST_TEST(o.at("run").as_string() == "r-9");
    BOOST_TEST(!o.contains("user"));
    BOOST_TEST(o.at("error").as_string() == "no such \"column\"\n");
    BOOST_TEST(o.at("Authorization").as_string() == "[redacted]");

    // Numbers as a person reads them, and as JSON: a duration is 0.212487, never 2.12487E-1; NaN is null.
    auto const timed = alog::format_line(alog::format::json, noon, alog::level::info, "p", "model.call", nullptr,
        {{"duration_ms", 0.212487}, {"tokens", 812}, {"ratio", std::nan("")}, {"big", 1e21}});
    BOOST_TEST(timed.find(R"("duration_ms":0.212487)") != std::string::npos, timed);
    BOOST_TEST(timed.find(R"("tokens":812)") != std::string::npos, timed);
    BOOST_TEST(timed.find(R"("ratio":null)") != std::string::npos, timed);
    auto const parsed = json::parse(timed).as_object();
    BOOST_TEST(parsed.at("big").to_number<double>() == 1e21);
    BOOST_TEST(parsed.at("event").as_string() == "model.call");
}

BOOST_AUTO_TEST_CASE(secrets_in_urls_are_not_written)
{
    BOOST_TEST(alog::redact_url("postgresql://app:s3cret@db.local:5432/x?sslmode=require") ==
        "postgresql://[redacted]@db.local:5432/x?sslmode=require");
    BOOST_TEST(alog::redact_url("https://api.example/search?q=bilbao&api_key=abc&key=k#top") ==
        "https://api.example/search?q=bilbao&api_key=[redacted]&key=[redacted]#top");
    BOOST_TEST(alog::redact_url("http://127.0.0.1:8080/v1/models") == "http://127.0.0.1:8080/v1/models");
    BOOST_TEST(alog::is_secret_name("X-Api-Key"));
    BOOST_TEST(alog::is_secret_name("refresh_token"));
    BOOST_TEST(!alog::is_secret_name("tokens_in")); // not a secret: a count
}

BOOST_AUTO_TEST_CASE(settings_from_the_applications_variables)
{
    alog::settings const defaults{.program = "agentio-sqlite-mcp"};
    alog::variable_names names;
    names.level.push_back("LOG_LEVEL");
    names.file.push_back("LOG_FILE");
    auto const read = alog::settings_from_environment(
        lookup_of({{"LOG_LEVEL", "WARNING"}, {"LOG_FILE", "/var/log/x.log"}, {"AGENTIO_LOG_FORMAT", "json"}}), defaults,
        names);
    BOOST_TEST_REQUIRE(read.has_value());
    BOOST_TEST((read->level == alog::level::warn));
    BOOST_TEST((read->format == alog::format::json));
    BOOST_TEST(read->file == "/var/log/x.log");
    BOOST_TEST(read->program == "agentio-sqlite-mcp");
    // The library's name comes first.
    auto const both = alog::settings_from_environment(
        lookup_of({{"AGENTIO_LOG_LEVEL", "debug"}, {"LOG_LEVEL", "error"}}), defaults, names);
    BOOST_TEST((both->level == alog::level::debug));
    auto const bad = alog::settings_from_environment(lookup_of({{"LOG_LEVEL", "loud"}}), defaults, names);
    BOOST_TEST_REQUIRE(bad.has_error());
    BOOST_TEST(agentio::to_string(bad.error()).starts_with("LOG_LEVEL: expected 'trace'"));
    auto const bad_format = alog::settings_from_environment(lookup_of({{"AGENTIO_LOG_FORMAT", "xml"}}), defaults);
    BOOST_TEST(agentio::to_string(bad_format.error()) == "AGENTIO_LOG_FORMAT: expected 'text' or 'json', got 'xml'");
    BOOST_TEST((*alog::parse_level("SUCCESS") == alog::level::info)); // loguru's
    BOOST_TEST((*alog::parse_level("critical") == alog::level::error));
}

BOOST_AUTO_TEST_CASE(a_file_of_json_lines_rotated_by_size)
{
    temp_dir dir;
    auto const file = dir.path / "app.log";
    {
        alog::logger l({.level = alog::level::info,
            .format = alog::format::json,
            .file = file.string(),
            .max_file_bytes = 4096,
            .max_files = 3,
            .queue_lines = 8192,
            .program = "test"});
        BOOST_TEST(l.warnings().empty());
        for(int i = 0; i < 200; ++i)
            l.info("tick", {{"n", i}, {"padding", std::string(40, 'x')}});
        l.debug("hidden", {{"n", -1}}); // below the level: not written
        l.flush();
    }
    BOOST_TEST(std::filesystem::exists(dir.path / "app.1.log"));
    BOOST_TEST(std::filesystem::exists(dir.path / "app.3.log"));
    BOOST_TEST(!std::filesystem::exists(dir.path / "app.4.log")); // only max_files kept
    for(auto const& entry : std::filesystem::directory_iterator(dir.path))
        BOOST_TEST(std::filesystem::file_size(entry.path()) <= 4096u + 200u);
    auto const current = lines_of(file);
    BOOST_TEST_REQUIRE(!current.empty());
    auto const last = json::parse(current.back()).as_object();
    BOOST_TEST(last.at("event").as_string() == "tick");
    BOOST_TEST(last.at("n").as_int64() == 199); // the newest line is in the current file
    for(auto const& line : current)
        BOOST_TEST(json::parse(line).at("event").as_string() != "hidden");
}

BOOST_AUTO_TEST_CASE(a_file_that_cannot_be_opened_falls_back_to_stderr)
{
    alog::logger l({.level = alog::level::info,
        .format = alog::format::text,
        .file = "/proc/agentio/no/such/dir/x.log",
        .max_file_bytes = 4096,
        .max_files = 1,
        .queue_lines = 64,
        .program = "test"});
    BOOST_TEST_REQUIRE(l.warnings().size() == 1u);
    BOOST_TEST(l.warnings()[0].find("cannot be written") != std::string::npos, l.warnings()[0]);
    l.info("still.logging"); // to stderr
    l.flush();
}

BOOST_AUTO_TEST_CASE(a_full_queue_drops_lines_and_counts_them)
{
    temp_dir dir;
    auto const file = dir.path / "burst.log";
    constexpr int total = 50000;
    std::uint64_t dropped = 0;
    {
        alog::logger l({.level = alog::level::info,
            .format = alog::format::text,
            .file = file.string(),
            .max_file_bytes = std::uint64_t(1) << 30,
            .max_files = 1,
            .queue_lines = 16,
            .program = "test"});
        for(int i = 0; i < total; ++i)
            l.info("burst", {{"n", i}});
        l.flush();
        dropped = l.dropped();
    }
    auto const written = lines_of(file).size();
    BOOST_TEST(written + dropped == std::size_t(total)); // each line written or counted, none lost unseen
    BOOST_TEST_MESSAGE("burst of " << total << " lines into a queue of 16: " << written << " written, " << dropped
                                   << " dropped");
}

BOOST_AUTO_TEST_CASE(a_default_logger_writes_nothing)
{
    alog::logger l;
    BOOST_TEST(!l.enabled(alog::level::error));
    l.error("nothing"); // no sink: no effect
    BOOST_TEST(l.dropped() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
