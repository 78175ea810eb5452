//
// agentio/testing/detail/fake_web_handler.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The fake web services' request handler, declared here so that `fake_web`
// can hold an `http::server` of it; its state and body are in impl/fake_web.ipp.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_HANDLER_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_HANDLER_HPP

#include <agentio/http/server.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message_generator.hpp>

#include <memory>
#include <optional>

namespace agentio::testing::detail {

struct fake_web_state;

// A streaming handler (see http::streaming_request_handler): answers are
// returned, except for the faults that cut, hold or drop the connection,
// which act on it directly.
struct fake_web_handler
{
    std::shared_ptr<fake_web_state> state;

    boost::asio::awaitable<std::optional<boost::beast::http::message_generator>> operator()(http::request&& req,
        boost::beast::tcp_stream& stream);
};

} // namespace agentio::testing::detail

#endif
