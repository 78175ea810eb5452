// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// libFuzzer target: agentio::sse::parser on arbitrary bytes.
//
// Properties checked, beyond "no crash, no sanitizer report":
// - splitting the input at any point gives the same events and end state as
//   parsing it whole (the first byte chooses the split points);
// - every dispatched value is valid UTF-8 (invalid input is replaced).
#include <agentio/sse/parser.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct result
{
    std::vector<agentio::sse::event> events;
    agentio::sse::end_state end;
};

bool same(result const& a, result const& b)
{
    if(a.end != b.end || a.events.size() != b.events.size())
        return false;
    for(std::size_t i = 0; i < a.events.size(); ++i)
        if(a.events[i].type != b.events[i].type || a.events[i].data != b.events[i].data ||
            a.events[i].last_event_id != b.events[i].last_event_id)
            return false;
    return true;
}

bool valid_utf8(std::string_view s)
{
    std::size_t i = 0;
    while(i < s.size())
    {
        auto const c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if(n == 0 || i + n > s.size())
            return false;
        for(std::size_t k = 1; k < n; ++k)
            if((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
                return false;
        i += n;
    }
    return true;
}

result parse(std::string_view input, std::size_t step)
{
    result r;
    agentio::sse::parser p(1 << 20);
    for(std::size_t at = 0; at < input.size(); at += step)
        p.feed(input.substr(at, step), [&](agentio::sse::event const& e) { r.events.push_back(e); });
    r.end = p.finish();
    return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    if(size == 0)
        return 0;
    std::size_t const step = 1 + data[0] % 13;
    std::string_view const input(reinterpret_cast<char const*>(data) + 1, size - 1);
    result const whole = parse(input, input.size() + 1);
    result const split = parse(input, step);
    if(!same(whole, split))
        std::abort();
    for(auto const& e : whole.events)
        if(!valid_utf8(e.type) || !valid_utf8(e.data) || !valid_utf8(e.last_event_id))
            std::abort();
    return 0;
}
