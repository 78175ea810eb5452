// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// multipart/form-data as it arrives: the same parts whatever the pieces the
// body comes in, bounds kept, malformed bodies refused with their reason.
#include <agentio/http/multipart.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

namespace http = agentio::http;

namespace {

struct seen_part
{
    std::string name;
    std::string filename; // "-" when none
    std::string content_type;
    std::string content;
};

struct parsed
{
    std::vector<seen_part> parts;
    boost::system::error_code error;
};

// Feeds `body` in pieces of `piece` bytes (0: whole).
parsed parse(std::string_view boundary, std::string_view body, std::size_t piece = 0, http::multipart_limits l = {})
{
    parsed out;
    bool open = false;
    http::multipart_parser p(boundary,
        {.part =
                [&](http::multipart_part const& part) {
                    BOOST_TEST(!open);
                    open = true;
                    out.parts.push_back({part.name, part.filename.value_or("-"), part.content_type, {}});
                    return boost::system::error_code{};
                },
            .data =
                [&](std::string_view bytes) {
                    BOOST_TEST(open);
                    BOOST_TEST(!bytes.empty());
                    out.parts.back().content.append(bytes);
                    return boost::system::error_code{};
                },
            .end =
                [&] {
                    BOOST_TEST(open);
                    open = false;
                    return boost::system::error_code{};
                }},
        l);
    if(piece == 0)
        piece = body.size() + 1;
    for(std::size_t i = 0; i < body.size() && !out.error; i += piece)
        out.error = p.write(body.substr(i, piece));
    if(!out.error)
        out.error = p.finish();
    return out;
}

// What the official openai npm client sends for files.create (undici's FormData), CRLF line breaks.
std::string const form = "--XyZ\r\n"
                         "Content-Disposition: form-data; name=\"purpose\"\r\n"
                         "\r\n"
                         "user_data\r\n"
                         "--XyZ\r\n"
                         "Content-Disposition: form-data; name=\"file\"; filename=\"ventas.csv\"\r\n"
                         "Content-Type: text/csv\r\n"
                         "\r\n"
                         "region,amount\r\nnorth,10\r\nX--XyZ is content\r\n\r\n"
                         "--XyZ--\r\n";

} // namespace

BOOST_AUTO_TEST_SUITE(multipart)

BOOST_AUTO_TEST_CASE(the_same_parts_whatever_the_pieces)
{
    for(std::size_t piece : {0u, 1u, 2u, 3u, 5u, 7u, 64u})
    {
        BOOST_TEST_CONTEXT("pieces of " << piece)
        {
            auto const got = parse("XyZ", form, piece);
            BOOST_TEST(!got.error, got.error.message());
            BOOST_TEST_REQUIRE(got.parts.size() == 2u);
            BOOST_TEST(got.parts[0].name == "purpose");
            BOOST_TEST(got.parts[0].filename == "-");
            BOOST_TEST(got.parts[0].content_type == "text/plain");
            BOOST_TEST(got.parts[0].content == "user_data");
            BOOST_TEST(got.parts[1].name == "file");
            BOOST_TEST(got.parts[1].filename == "ventas.csv");
            BOOST_TEST(got.parts[1].content_type == "text/csv");
            // The boundary without the line break and dashes before it is content.
            BOOST_TEST(got.parts[1].content == "region,amount\r\nnorth,10\r\nX--XyZ is content\r\n");
        }
    }
}

BOOST_AUTO_TEST_CASE(preamble_padding_empty_parts_and_epilogue)
{
    std::string const body = "this preamble is ignored\r\n"
                             "--b  \t\r\n"
                             "Content-Disposition: form-data; name=empty\r\n"
                             "\r\n"
                             "\r\n"
                             "--b\r\n"
                             "content-disposition: FORM-DATA; NAME=\"x\"; filename*=UTF-8''n%C3%B3mina%202024.pdf; "
                             "filename=\"fallback.pdf\"\r\n"
                             "\r\n"
                             "%PDF-1.7\r\n"
                             "--b--this epilogue too";
    auto const got = parse("b", body, 3);
    BOOST_TEST(!got.error, got.error.message());
    BOOST_TEST_REQUIRE(got.parts.size() == 2u);
    BOOST_TEST(got.parts[0].name == "empty");
    BOOST_TEST(got.parts[0].content.empty());
    BOOST_TEST(got.parts[1].filename == "nómina 2024.pdf"); // filename* wins, decoded
    BOOST_TEST(got.parts[1].content == "%PDF-1.7");
}

BOOST_AUTO_TEST_CASE(a_client_folder_in_a_file_name_is_dropped)
{
    std::string const body =
        "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"C:\\\\Users\\\\ana\\\\x.txt\"\r\n"
        "\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"g\"; filename=\"../../etc/passwd\"\r\n"
        "\r\ny\r\n--b--";
    auto const got = parse("b", body);
    BOOST_TEST(!got.error, got.error.message());
    BOOST_TEST_REQUIRE(got.parts.size() == 2u);
    BOOST_TEST(got.parts[0].filename == "x.txt");
    BOOST_TEST(got.parts[1].filename == "passwd");
}

BOOST_AUTO_TEST_CASE(malformed_bodies_are_refused_with_their_reason)
{
    auto error_of = [](std::string_view body, http::multipart_limits l = {}) {
        auto const e = parse("b", body, 0, l).error;
        return e ? static_cast<http::multipart_error>(e.value()) : http::multipart_error{};
    };
    BOOST_TEST((error_of("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end") ==
        http::multipart_error::truncated));
    BOOST_TEST((error_of("no delimiter at all") == http::multipart_error::truncated));
    BOOST_TEST((error_of("--bX\r\n") == http::multipart_error::malformed_delimiter)); // a boundary then junk
    BOOST_TEST((error_of("--b junk\r\n") == http::multipart_error::malformed_delimiter));
    BOOST_TEST((error_of("--b\r\nno colon here\r\n\r\nx\r\n--b--") == http::multipart_error::malformed_head));
    BOOST_TEST((error_of("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n folded\r\n\r\nx\r\n--b--") ==
        http::multipart_error::malformed_head));
    BOOST_TEST((error_of("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--") == http::multipart_error::missing_name));
    BOOST_TEST((error_of("--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--b--") ==
        http::multipart_error::missing_name));
    BOOST_TEST((error_of("--b\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--b--") ==
        http::multipart_error::missing_name)); // an unclosed quote
    BOOST_TEST((error_of("--b\r\nX: " + std::string(9000, 'h') + "\r\n\r\nx\r\n--b--") ==
        http::multipart_error::head_too_large));
    std::string many;
    for(int i = 0; i < 5; ++i)
        many += "--b\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\nx\r\n";
    many += "--b--";
    BOOST_TEST((error_of(many, {.head_bytes = 8192, .parts = 4}) == http::multipart_error::too_many_parts));
    BOOST_TEST((error_of(many, {.head_bytes = 8192, .parts = 5}) == http::multipart_error{}));
}

BOOST_AUTO_TEST_CASE(a_callback_error_stops_the_parse)
{
    http::multipart_parser p("b",
        {.part = [](http::multipart_part const&) { return boost::system::error_code{}; },
            .data = [](std::string_view) { return make_error_code(boost::system::errc::file_too_large); },
            .end = [] { return boost::system::error_code{}; }});
    auto const ec = p.write("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n" + std::string(100000, 'x'));
    BOOST_TEST((ec == boost::system::errc::file_too_large));
    BOOST_TEST((p.write("more") == boost::system::errc::file_too_large));
    BOOST_TEST((p.finish() == boost::system::errc::file_too_large));
}

BOOST_AUTO_TEST_CASE(the_boundary_of_a_content_type)
{
    BOOST_TEST(http::multipart_boundary("multipart/form-data; boundary=XyZ").value() == "XyZ");
    BOOST_TEST(http::multipart_boundary("Multipart/Form-Data ; charset=utf-8; boundary=\"a b:c\"").value() == "a b:c");
    BOOST_TEST(http::multipart_boundary("multipart/form-data; boundary=----formdata-undici-0123456789").value() ==
        "----formdata-undici-0123456789");
    for(auto bad :
        {"application/json", "multipart/form-data", "multipart/form-data; boundary=", "multipart/mixed; boundary=x",
            "multipart/form-data; boundary=\"ends with space \"", "multipart/form-data; boundary=<x>"})
    {
        BOOST_TEST_INFO(bad);
        BOOST_TEST((http::multipart_boundary(bad).error() == http::multipart_error::not_multipart));
    }
    BOOST_TEST((http::multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'a')).error() ==
        http::multipart_error::not_multipart));
}

BOOST_AUTO_TEST_SUITE_END()
