// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/sse/parser.hpp>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>
#include "test_paths.hpp"

namespace sse = agentio::sse;

namespace {

struct parsed
{
    std::vector<sse::event> events;
    sse::end_state end = sse::end_state::clean;

    bool operator==(parsed const& o) const
    {
        if(end != o.end || events.size() != o.events.size())
            return false;
        for(std::size_t i = 0; i < events.size(); ++i)
            if(events[i].type != o.events[i].type || events[i].data != o.events[i].data ||
                events[i].last_event_id != o.events[i].last_event_id)
                return false;
        return true;
    }
};

std::ostream& operator<<(std::ostream& os, parsed const& p)
{
    for(auto const& e : p.events)
        os << "[" << e.type << "|" << e.data << "|" << e.last_event_id << "]";
    return os << (p.end == sse::end_state::clean ? " clean" : " truncated");
}

// Parses `chunks` in order.
parsed parse(std::vector<std::string_view> const& chunks)
{
    parsed out;
    sse::parser p;
    for(auto c : chunks)
        BOOST_REQUIRE(p.feed(c, [&](sse::event const& e) { out.events.push_back(e); }));
    out.end = p.finish();
    return out;
}

parsed parse(std::string_view whole)
{
    return parse(std::vector<std::string_view>{whole});
}

std::string replace_lf(std::string_view s, std::string_view with)
{
    std::string out;
    for(char c : s)
        c == '\n' ? out.append(with) : out.append(1, c);
    return out;
}

std::string read_file(std::filesystem::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::filesystem::path> sse_fixtures()
{
    std::vector<std::filesystem::path> out;
    for(auto const& entry : std::filesystem::directory_iterator(AGENTIO_WIRE_FIXTURES))
        if(entry.path().extension() == ".sse")
            out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sse_parser)

BOOST_AUTO_TEST_CASE(the_specs_own_examples)
{
    auto a = parse(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n");
    BOOST_REQUIRE(a.events.size() == 2u);
    BOOST_TEST(a.events[0].data == "first event");
    BOOST_TEST(a.events[0].type == "message");
    BOOST_TEST(a.events[0].last_event_id == "1");
    BOOST_TEST(a.events[1].data == "second event");
    BOOST_TEST(a.events[1].last_event_id == "");      // "id" with no value resets it
    BOOST_TEST((a.end == sse::end_state::truncated)); // the third event has no blank line after it

    auto b = parse(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n");
    BOOST_REQUIRE(b.events.size() == 3u);
    BOOST_TEST(b.events[2].data == " third event"); // only one space is removed
    BOOST_TEST((b.end == sse::end_state::clean));

    auto c = parse("data\n\ndata\ndata\n\ndata:");
    BOOST_REQUIRE(c.events.size() == 2u);
    BOOST_TEST(c.events[0].data == "");
    BOOST_TEST(c.events[1].data == "\n");
    BOOST_TEST((c.end == sse::end_state::truncated));

    auto d = parse("data: YHOO\ndata: +2\ndata: 10\n\n");
    BOOST_REQUIRE(d.events.size() == 1u);
    BOOST_TEST(d.events[0].data == "YHOO\n+2\n10");
}

BOOST_AUTO_TEST_CASE(fields_and_their_rules)
{
    // event type does not persist; last id does; unknown fields and comments are ignored.
    auto p = parse("event: a\nid: 7\ndata: 1\n\ndata: 2\nfoo: bar\n: comment\n\n");
    BOOST_REQUIRE(p.events.size() == 2u);
    BOOST_TEST(p.events[0].type == "a");
    BOOST_TEST(p.events[1].type == "message");
    BOOST_TEST(p.events[1].last_event_id == "7");
    // A block with only event: dispatches nothing.
    BOOST_TEST(parse("event: ping\n\n").events.empty());
    // Field names are case-sensitive.
    BOOST_TEST(parse("DATA: x\n\n").events.empty());
    // id with NUL is ignored.
    auto n = parse(std::string_view("id: 1\n\nid: a\0b\ndata: x\n\n", 25));
    BOOST_REQUIRE(n.events.size() == 1u);
    BOOST_TEST(n.events[0].last_event_id == "1");
    // retry: digits only.
    sse::parser r;
    auto ignore = [](sse::event const&) {};
    r.feed("retry: 1500\n\n", ignore);
    BOOST_TEST(r.retry().value() == 1500u);
    r.feed("retry: 15s\n\nretry:\n\nretry: -1\n\n", ignore);
    BOOST_TEST(r.retry().value() == 1500u);
    // A colon inside the value is kept.
    BOOST_TEST(parse("data: a: b\n\n").events.at(0).data == "a: b");
}

BOOST_AUTO_TEST_CASE(line_ends_and_the_bom)
{
    parsed const expected = parse("data: x\n\ndata: y\n\n");
    BOOST_TEST(parse("data: x\r\n\r\ndata: y\r\n\r\n") == expected);
    BOOST_TEST(parse("data: x\r\rdata: y\r\r") == expected);
    BOOST_TEST(parse("data: x\r\n\rdata: y\n\r\n") == expected);
    std::string const with_bom = "\xEF\xBB\xBF"
                                 "data: x\n\ndata: y\n\n";
    for(std::size_t k = 0; k <= with_bom.size(); ++k)
        BOOST_TEST(parse({std::string_view(with_bom).substr(0, k), std::string_view(with_bom).substr(k)}) == expected,
            k);
    // Only one BOM, only at the start: a second one is part of the field name.
    BOOST_TEST(parse("\xEF\xBB\xBF\xEF\xBB\xBF"
                     "data: x\n\n")
                   .events.empty());
    BOOST_TEST(parse("data: x\n\n\xEF\xBB\xBF"
                     "data: y\n\n")
                   .events.size() == 1u);
    // CR at the end of one read, LF at the start of the next: one line end, not two.
    BOOST_TEST(parse({"data: x\r", "\ndata: y\r", "\n\r", "\n"}).events.size() == 1u);
    BOOST_TEST((parse({"data: x\r", "\ndata: y\r", "\n\r", "\n"}).events[0].data == "x\ny"));
    // A stream that is only a BOM, or nothing, ended cleanly.
    BOOST_TEST((parse("\xEF\xBB").end == sse::end_state::clean));
    BOOST_TEST((parse("").end == sse::end_state::clean));
    BOOST_TEST((parse(": keep-alive").end == sse::end_state::clean));
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_replaced_as_the_decoder_does)
{
    // Maximal subparts: F0 80 is two errors (80 is not a valid 2nd byte after F0), E2 82 cut short is one.
    auto p = parse("data: a\xFF"
                   "b\xF0\x80"
                   "c\xE2\x82\n\n");
    BOOST_TEST(p.events.at(0).data ==
        "a\xEF\xBF\xBD"
        "b\xEF\xBF\xBD\xEF\xBF\xBD"
        "c\xEF\xBF\xBD");
    BOOST_TEST(parse("data: ñ€😀\n\n").events.at(0).data == "ñ€😀");
    BOOST_TEST(parse("data: \xED\xA0\x80\n\n").events.at(0).data ==
        "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // surrogate
}

BOOST_AUTO_TEST_CASE(an_oversized_event_is_refused)
{
    sse::parser p(64);
    auto ignore = [](sse::event const&) {};
    BOOST_TEST(p.feed("data: " + std::string(40, 'x') + "\n", ignore));
    BOOST_TEST(!p.feed("data: " + std::string(40, 'x') + "\n", ignore));
    BOOST_TEST(p.failed());
    sse::parser q(64);
    BOOST_TEST(!q.feed(std::string(100, 'x'), ignore)); // one endless line
}

BOOST_AUTO_TEST_CASE(every_fixture_whole_split_anywhere_and_with_other_line_ends)
{
    auto const fixtures = sse_fixtures();
    BOOST_REQUIRE(fixtures.size() >= 8u);
    for(auto const& path : fixtures)
    {
        BOOST_TEST_CONTEXT(path.filename().string())
        {
            std::string const bytes = read_file(path);
            parsed const whole = parse(bytes);
            BOOST_TEST((whole.end == sse::end_state::clean));
            BOOST_REQUIRE(whole.events.size() >= 3u);

            // Every event carries JSON (or OpenAI's [DONE]); Anthropic streams name their events.
            bool const anthropic = path.filename().string().starts_with("anthropic");
            for(auto const& e : whole.events)
            {
                if(e.data != "[DONE]")
                    BOOST_CHECK_NO_THROW(boost::json::parse(e.data));
                if(anthropic)
                    BOOST_TEST(e.type != "message");
                else
                    BOOST_TEST(e.type == "message");
            }
            if(anthropic)
                BOOST_TEST(whole.events.front().type == "message_start");

            // Split at every byte boundary, and fed one byte at a time.
            std::string_view const v = bytes;
            for(std::size_t k = 1; k < v.size(); ++k)
            {
                if(!(parse({v.substr(0, k), v.substr(k)}) == whole))
                {
                    BOOST_ERROR("differs when split at byte " << k);
                    break;
                }
            }
            std::vector<std::string_view> bytewise;
            for(std::size_t k = 0; k < v.size(); ++k)
                bytewise.push_back(v.substr(k, 1));
            BOOST_TEST(parse(bytewise) == whole);

            // CRLF and CR line ends, whole and split anywhere.
            for(std::string_view eol : {"\r\n", "\r"})
            {
                std::string const other = replace_lf(bytes, eol);
                std::string_view const o = other;
                BOOST_TEST(parse(other) == whole);
                for(std::size_t k = 1; k < o.size(); ++k)
                {
                    if(!(parse({o.substr(0, k), o.substr(k)}) == whole))
                    {
                        BOOST_ERROR("differs with other line ends when split at byte " << k);
                        break;
                    }
                }
            }

            // Cut anywhere inside the last event: that event is not dispatched and the end is truncated.
            auto const last_start = v.rfind("\n\n", v.size() - 3) + 2;
            for(std::size_t cut = last_start + 1; cut < v.size() - 1; ++cut)
            {
                auto const t = parse(v.substr(0, cut));
                if(!(t.end == sse::end_state::truncated && t.events.size() + 1 == whole.events.size()))
                {
                    BOOST_ERROR("cut at " << cut << " not reported: " << t);
                    break;
                }
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
