// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Where the tests find their files, found at run time rather than written into
// the compile command: no absolute path in a -D, so a compiler cache serves a
// fresh clone in another folder (CMakeLists.txt, AGENTIO_CCACHE).
//
// The build folder is the first folder above the test program that holds
// CMakeCache.txt (AGENTIO_BUILD_DIR overrides); the source folder is the one
// that cache names (CMAKE_HOME_DIRECTORY; AGENTIO_SOURCE_DIR overrides).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace agentio_test {

inline std::string const& build_dir()
{
    static std::string const dir = [] {
        if(char const* v = std::getenv("AGENTIO_BUILD_DIR"); v && *v)
            return std::string(v);
        std::error_code ec;
        auto at = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
        for(; !ec && !at.empty() && at != at.root_path(); at = at.parent_path())
            if(std::filesystem::exists(at / "CMakeCache.txt", ec))
                return at.string();
        throw std::runtime_error("test_paths: no CMakeCache.txt above the test program; set AGENTIO_BUILD_DIR");
    }();
    return dir;
}

inline std::string const& source_dir()
{
    static std::string const dir = [] {
        if(char const* v = std::getenv("AGENTIO_SOURCE_DIR"); v && *v)
            return std::string(v);
        std::ifstream cache(build_dir() + "/CMakeCache.txt");
        std::string line;
        constexpr std::string_view key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
        while(std::getline(cache, line))
            if(line.starts_with(key))
                return line.substr(key.size());
        throw std::runtime_error("test_paths: CMakeCache.txt names no source folder; set AGENTIO_SOURCE_DIR");
    }();
    return dir;
}

/// `relative` in the source tree.
inline std::string in_source(std::string_view relative)
{
    return source_dir() + "/" + std::string(relative);
}

/// `relative` in the build tree.
inline std::string in_build(std::string_view relative)
{
    return build_dir() + "/" + std::string(relative);
}

} // namespace agentio_test

// The names the tests used when these were compile definitions.
#define AGENTIO_WIRE_FIXTURES ::agentio_test::in_source("tests/fixtures/llm-wire")
#define AGENTIO_SCENARIOS ::agentio_test::in_source("tests/fixtures/scenarios")
#define AGENTIO_POSTGRES_SCRIPT ::agentio_test::in_source("scripts/postgres.sh")
#define AGENTIO_FIRST_AGENT_SCENARIO ::agentio_test::in_source("docs/guide/examples/first-agent.json")
#define AGENTIO_ROUTING_SET ::agentio_test::in_source("reference_server/platform/tests/routing.json")
#define NORMATIVA_QUESTIONS ::agentio_test::in_source("reference_server/normativa/tests/questions.json")
#define AGENTIO_TEST_DATA ::agentio_test::in_build("data")
#define AGENTIO_SQLITE_MCP ::agentio_test::in_build("reference_server/sqlite_mcp/agentio-sqlite-mcp")
#define AGENTIO_FACTURAS ::agentio_test::in_build("reference_server/facturas/agentio-facturas")
#define AGENTIO_PORTFOLIO_EXE ::agentio_test::in_build("reference_server/portfolio/agentio-portfolio")
