// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Settings from the environment (through a lookup, not the process's), and
// where a companion program is.
#include <agentio/environment.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

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

std::filesystem::path self()
{
    return std::filesystem::canonical("/proc/self/exe");
}

} // namespace

BOOST_AUTO_TEST_SUITE(environment)

BOOST_AUTO_TEST_CASE(whole_numbers_in_a_range_or_an_error_naming_the_variable)
{
    unsigned threads = 4;
    BOOST_TEST(agentio::read_unsigned("THREADS", threads, 1, 64, lookup_of({})).has_value());
    BOOST_TEST(threads == 4u); // unset: untouched
    BOOST_TEST(agentio::read_unsigned("THREADS", threads, 1, 64, lookup_of({{"THREADS", "8"}})).has_value());
    BOOST_TEST(threads == 8u);
    for(auto const* bad : {"0", "65", "-1", "8 ", "ocho", "99999999999999999999"})
    {
        auto const r = agentio::read_unsigned("THREADS", threads, 1, 64, lookup_of({{"THREADS", bad}}));
        BOOST_TEST_REQUIRE(!r.has_value(), bad);
        BOOST_TEST(agentio::to_string(r.error()) ==
            std::string("THREADS: expected a whole number from 1 to 64, got '") + bad + "'");
    }
    BOOST_TEST(threads == 8u);
    BOOST_TEST(agentio::to_string({"MODE", "x", {"a", "b"}}) == "MODE: expected 'a' or 'b', got 'x'");
}

BOOST_AUTO_TEST_CASE(lists_are_split_on_commas_without_blanks_or_empty_items)
{
    using list = std::vector<std::string>;
    BOOST_TEST(agentio::split_list("a, b ,\tc") == (list{"a", "b", "c"}));
    BOOST_TEST(agentio::split_list("a,,b,") == (list{"a", "b"}));
    BOOST_TEST(agentio::split_list(" , ,") == list{});
    BOOST_TEST(agentio::split_list("") == list{});
    BOOST_TEST(agentio::split_list("name=http://h:1/x?a=1") == (list{"name=http://h:1/x?a=1"}));
    BOOST_TEST(agentio::split_list("una clave con espacios") == (list{"una clave con espacios"}));
}

BOOST_AUTO_TEST_CASE(a_companion_program_beside_this_one_or_in_a_build_folder)
{
    auto const me = self();
    auto const name = me.filename().string();
    BOOST_TEST(agentio::companion_program(name) == me.string());
    BOOST_TEST(agentio::companion_program(name, {"no-such-folder"}) == me.string());
    // A build tree keeps programs in sibling folders: found through one of them.
    auto const sibling = me.parent_path().parent_path() / ("agentio-companion-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(sibling);
    std::ofstream(sibling / "agentio-companion") << "#!/bin/sh\n";
    auto const relative = "../" + sibling.filename().string();
    BOOST_TEST(agentio::companion_program("agentio-companion", {"no-such-folder", relative}) ==
        (sibling / "agentio-companion").string());
    std::filesystem::remove_all(sibling);
    auto const folder = me.parent_path().filename().string();
    // A folder of that name is not a program.
    BOOST_TEST(agentio::companion_program(folder, {".."}) == folder);
    // Not found: the bare name, for PATH.
    BOOST_TEST(agentio::companion_program("agentio-no-such-program", {"..", "../.."}) == "agentio-no-such-program");
}

BOOST_AUTO_TEST_SUITE_END()
