// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/sse/format.hpp>

#include <agentio/sse/parser.hpp>

#include <boost/test/unit_test.hpp>

#include <vector>

namespace sse = agentio::sse;

namespace {

std::vector<sse::event> parse_all(std::string_view bytes)
{
    std::vector<sse::event> out;
    sse::parser p;
    BOOST_REQUIRE(p.feed(bytes, [&](sse::event const& e) { out.push_back(e); }));
    BOOST_TEST((p.finish() == sse::end_state::clean));
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sse_format)

BOOST_AUTO_TEST_CASE(the_wire_form_of_the_chat_events)
{
    std::string out;
    sse::append_event(out, {.type = "chunk", .data = R"({"content":"Voy a consultar"})"});
    sse::append_event(out, {.type = "clear_streaming", .data = "{}"});
    BOOST_TEST(out ==
        "event: chunk\ndata: {\"content\":\"Voy a consultar\"}\n\n"
        "event: clear_streaming\ndata: {}\n\n");
}

BOOST_AUTO_TEST_CASE(line_breaks_cannot_inject_fields)
{
    std::string out;
    sse::append_event(out,
        {.type = "chunk\ndata: injected\n\nevent: evil", .data = "a\nevent: evil\r\nb\rc", .id = "1\n2"});
    sse::append_comment(out, "ping\ndata: x");
    auto const events = parse_all(out);
    BOOST_REQUIRE(events.size() == 1u);
    BOOST_TEST(events[0].type == "chunkdata: injectedevent: evil");
    BOOST_TEST(events[0].data == "a\nevent: evil\nb\nc"); // every line stayed data
    BOOST_TEST(events[0].last_event_id == "12");
}

BOOST_AUTO_TEST_CASE(round_trips_through_the_parser)
{
    std::vector<std::string> const payloads{"", "x", "\n", "a\n\nb", "trailing\n", "ñ€😀", " leading space",
        R"({"a":"b\nc"})", "\r\n\r\n", ":not a comment"};
    std::string out;
    for(auto const& p : payloads)
        sse::append_event(out, {.type = "t", .data = p});
    auto const events = parse_all(out);
    BOOST_REQUIRE(events.size() == payloads.size());
    for(std::size_t i = 0; i < payloads.size(); ++i)
    {
        // CR and CRLF are line breaks too; they come back as LF.
        std::string expected;
        std::string_view const p = payloads[i];
        for(std::size_t k = 0; k < p.size(); ++k)
        {
            if(p[k] != '\r')
                expected.push_back(p[k]);
            else if(k + 1 == p.size() || p[k + 1] != '\n')
                expected.push_back('\n');
        }
        BOOST_TEST(events[i].data == expected, i);
        BOOST_TEST(events[i].type == "t");
    }
    // A comment dispatches nothing.
    std::string keep_alive;
    sse::append_comment(keep_alive);
    BOOST_TEST(keep_alive == ":\n\n");
    BOOST_TEST(parse_all(keep_alive).empty());
}

BOOST_AUTO_TEST_SUITE_END()
