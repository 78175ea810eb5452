// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// What bench/platform_bench.sh measures besides latency and load:
//   platform_bench react FILE     the ReAct parser on model-like replies
//                                 (react_replies.json): the share parsed as
//                                 expected, and the time per parse
//   platform_bench routing FILE   the keyword router on the labelled requests
//                                 (tests/routing.json): accuracy per label
#include "routing.hpp"

#include <agentio/agent/react.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace json = boost::json;
namespace react = agentio::agent::react;

namespace {

json::value read_json(char const* path)
{
    std::ifstream in(path);
    if(!in)
        throw std::runtime_error(std::string("cannot read ") + path);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

std::string lower(std::string s)
{
    for(auto& c : s)
        if(c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// Whether the parse is what `expect` says.
bool as_expected(react::reply const& got, json::object const& expect, std::string& what)
{
    auto const kind = std::string(expect.at("kind").as_string());
    if(auto const* a = std::get_if<react::action>(&got))
    {
        what = "action " + a->tool + " " + json::serialize(a->input);
        return kind == "action" && lower(a->tool) == lower(std::string(expect.at("tool").as_string())) &&
            a->input == expect.at("input");
    }
    if(auto const* f = std::get_if<react::final_answer>(&got))
    {
        what = "final answer '" + f->text + "'";
        return kind == "final" && f->text == expect.at("text").as_string();
    }
    what = "malformed: " + std::get<react::malformed>(got).reason;
    return kind == "malformed";
}

int react_parse(char const* path)
{
    auto const replies = read_json(path).at("replies").as_array();
    std::size_t right = 0;
    for(auto const& r : replies)
    {
        auto const text = std::string(r.at("reply").as_string());
        auto const got = react::parse(text);
        std::string what;
        if(as_expected(got, r.at("expect").as_object(), what))
            ++right;
        else
            std::printf("  not as expected: %s\n    → %s\n", json::serialize(r.at("reply")).c_str(), what.c_str());
    }
    // The time of a parse, over many rounds of the whole set.
    constexpr int rounds = 2000;
    std::size_t sink = 0;
    auto const started = std::chrono::steady_clock::now();
    for(int i = 0; i < rounds; ++i)
        for(auto const& r : replies)
            sink += react::parse(r.at("reply").as_string()).index();
    auto const elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    std::printf("ReAct parser: %zu/%zu replies parsed as expected (%.1f%%), %.2f µs per parse (%zu)\n", right,
        replies.size(), 100.0 * static_cast<double>(right) / static_cast<double>(replies.size()),
        elapsed / (rounds * static_cast<double>(replies.size())), sink % 2);
    return 0;
}

int routing(char const* path)
{
    auto const requests = read_json(path).at("requests").as_array();
    auto const rules = platform::routing_rules();
    std::map<std::string, std::pair<int, int>> per_label;
    std::size_t right = 0;
    for(auto const& item : requests)
    {
        auto const label = std::string(item.at("label").as_string());
        auto const chosen = std::string(
            agentio::agent::to_string(agentio::agent::choose_by_keywords(item.at("request").as_string(), rules)));
        ++per_label[label].second;
        if(chosen == label)
        {
            ++right;
            ++per_label[label].first;
        }
        else
            std::printf("  %s → %s (labelled %s)\n", json::serialize(item.at("request")).c_str(), chosen.c_str(),
                label.c_str());
    }
    std::printf("keyword router: %zu/%zu right (%.1f%%)", right, requests.size(),
        100.0 * static_cast<double>(right) / static_cast<double>(requests.size()));
    for(auto const& [label, counts] : per_label)
        std::printf("; %s %d/%d", label.c_str(), counts.first, counts.second);
    std::printf("\n");
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try
    {
        if(argc == 3 && std::string_view(argv[1]) == "react")
            return react_parse(argv[2]);
        if(argc == 3 && std::string_view(argv[1]) == "routing")
            return routing(argv[2]);
        std::fprintf(stderr, "usage: platform_bench react REPLIES.json | platform_bench routing REQUESTS.json\n");
        return 2;
    }
    catch(std::exception const& e)
    {
        std::fprintf(stderr, "platform_bench: %s\n", e.what());
        return 1;
    }
}
