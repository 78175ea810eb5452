// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// libFuzzer target: agentio::http::multipart_parser on arbitrary bodies.
//
// Properties checked, beyond "no crash, no sanitizer report":
// - splitting the body at any points gives the same parts, contents and
//   outcome as parsing it whole (the first byte chooses the piece size);
// - parts open and close in order, and never more than the limit;
// - what the parser holds stays bounded by a slice, a delimiter and a head.
#include <agentio/http/multipart.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct outcome
{
    std::vector<std::string> heads; // name, filename, type
    std::vector<std::string> contents;
    boost::system::error_code error;
};

outcome run(std::string_view body, std::size_t piece)
{
    outcome out;
    bool open = false;
    agentio::http::multipart_parser p("frontera",
        {.part =
                [&](agentio::http::multipart_part const& part) {
                    if(open)
                        std::abort();
                    open = true;
                    out.heads.push_back(part.name + '\n' + part.filename.value_or("-") + '\n' + part.content_type);
                    out.contents.emplace_back();
                    return boost::system::error_code{};
                },
            .data =
                [&](std::string_view bytes) {
                    if(!open || bytes.empty())
                        std::abort();
                    out.contents.back().append(bytes);
                    return boost::system::error_code{};
                },
            .end =
                [&] {
                    if(!open)
                        std::abort();
                    open = false;
                    return boost::system::error_code{};
                }},
        {.head_bytes = 512, .parts = 8});
    for(std::size_t i = 0; i < body.size() && !out.error; i += piece)
        out.error = p.write(body.substr(i, piece));
    if(!out.error)
        out.error = p.finish();
    if(out.heads.size() > 8)
        std::abort();
    // A part still open at the end is only possible when the body failed.
    if(open && !out.error)
        std::abort();
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    if(size == 0)
        return 0;
    std::size_t const piece = 1 + data[0] % 17;
    std::string_view const body(reinterpret_cast<char const*>(data) + 1, size - 1);
    auto const whole = run(body, body.size() + 1);
    auto const pieces = run(body, piece);
    if(whole.heads != pieces.heads || whole.error != pieces.error)
        std::abort();
    // Contents agree up to where both stopped (an error may come at a different byte).
    if(!whole.error && whole.contents != pieces.contents)
        std::abort();
    return 0;
}
