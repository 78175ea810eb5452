//
// agentio/detail/json_pointer.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Building RFC 6901 JSON Pointers, shared by the validator and compact_json.
//

#ifndef AGENTIO_DETAIL_JSON_POINTER_HPP
#define AGENTIO_DETAIL_JSON_POINTER_HPP

#include <string>
#include <string_view>

namespace agentio::detail {

/// Appends "/token" with '~' and '/' escaped as "~0" and "~1".
inline void append_pointer_token(std::string& pointer, std::string_view token)
{
    pointer += '/';
    for(char c : token)
    {
        if(c == '~')
            pointer += "~0";
        else if(c == '/')
            pointer += "~1";
        else
            pointer += c;
    }
}

} // namespace agentio::detail

#endif
