// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Test that header file is self-contained.
#include <agentio/http/accept.hpp>

#include <boost/test/unit_test.hpp>

namespace http = agentio::http;

BOOST_AUTO_TEST_SUITE(http_accept)

// RFC 9110 §12.5.1: the most specific range decides; q=0 refuses.
BOOST_AUTO_TEST_CASE(media_types_by_the_most_specific_range)
{
    BOOST_TEST(http::accepts_media_type("application/json, text/event-stream", "text/event-stream"));
    BOOST_TEST(http::accepts_media_type("text/*", "text/event-stream"));
    BOOST_TEST(http::accepts_media_type("*/*", "application/json"));
    BOOST_TEST(!http::accepts_media_type("*/*, text/event-stream;q=0", "text/event-stream"));
    BOOST_TEST(http::accepts_media_type("text/*;q=0, text/event-stream", "text/event-stream"));
    BOOST_TEST(http::accepts_media_type("TEXT/Event-Stream ; q=0.5", "text/event-stream"));
    BOOST_TEST(!http::accepts_media_type("application/json", "text/event-stream"));
    BOOST_TEST(!http::accepts_media_type("", "application/json"));
}

// RFC 9110 §12.5.3: x-gzip is gzip; `*` covers what is not named.
BOOST_AUTO_TEST_CASE(codings_named_or_by_the_wildcard)
{
    BOOST_TEST(http::accepts_coding("gzip, deflate, br", "gzip"));
    BOOST_TEST(http::accepts_coding("x-gzip", "gzip"));
    BOOST_TEST(http::accepts_coding("*", "gzip"));
    BOOST_TEST(!http::accepts_coding("*, gzip;q=0", "gzip"));
    BOOST_TEST(!http::accepts_coding("gzip;q=0.000", "gzip"));
    BOOST_TEST(http::accepts_coding("gzip;q=0.001", "gzip"));
    BOOST_TEST(!http::accepts_coding("identity", "gzip"));
}

BOOST_AUTO_TEST_SUITE_END()
