//
// agentio/agent/detail/json_reply.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The JSON object a model's reply holds. A model asked for JSON in words (not
// constrained by the API) wraps it in a fence or a sentence now and then.
//

#ifndef AGENTIO_AGENT_DETAIL_JSON_REPLY_HPP
#define AGENTIO_AGENT_DETAIL_JSON_REPLY_HPP

#include <boost/json/parse_options.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>

#include <string_view>

namespace agentio::agent::detail {

// The first JSON object of `s` that parses: the model's prose and fences
// around it are skipped, and so is a brace of the prose.
inline bool first_json_object(std::string_view s, boost::json::value& value)
{
    boost::json::parse_options opt;
    opt.allow_comments = true;
    opt.allow_trailing_commas = true;
    for(auto open = s.find('{'); open != std::string_view::npos; open = s.find('{', open + 1))
    {
        boost::json::parser p({}, opt);
        boost::system::error_code ec;
        p.write_some(s.data() + open, s.size() - open, ec);
        if(ec)
            continue;
        value = p.release();
        return true;
    }
    return false;
}

} // namespace agentio::agent::detail

#endif
