//
// agentio/sse/impl/parser.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_SSE_IMPL_PARSER_HPP
#define AGENTIO_SSE_IMPL_PARSER_HPP

#include <agentio/detail/utf8.hpp>

#include <utility>

namespace agentio::sse {

template<class OnEvent>
bool parser::feed(std::string_view bytes, OnEvent&& on_event)
{
    if(failed_)
        return false;
    std::size_t i = 0;
    std::size_t const n = bytes.size();
    if(after_cr_ && n != 0)
    {
        after_cr_ = false;
        if(bytes[0] == '\n')
            i = 1; // the second half of a CRLF split across two reads
    }
    while(i < n)
    {
        std::size_t j = i;
        while(j < n && bytes[j] != '\n' && bytes[j] != '\r')
            ++j;
        if(j == n)
        {
            line_.append(bytes.data() + i, n - i);
            if(max_event_bytes_ != 0 && line_.size() > max_event_bytes_)
                return !(failed_ = true);
            break;
        }
        // A whole line: straight from the input when nothing is pending.
        std::string_view line = bytes.substr(i, j - i);
        if(!line_.empty())
        {
            line_.append(line);
            line = line_;
        }
        if(bytes[j] == '\r')
        {
            if(j + 1 < n)
                j += bytes[j + 1] == '\n';
            else
                after_cr_ = true; // an LF may still come, in the next read
        }
        i = j + 1;
        process_line(line, on_event);
        line_.clear();
        if(max_event_bytes_ != 0 && data_.size() > max_event_bytes_)
            return !(failed_ = true);
    }
    return true;
}

template<class OnEvent>
void parser::process_line(std::string_view line, OnEvent& on_event)
{
    if(at_start_)
    {
        at_start_ = false;
        if(line.starts_with("\xEF\xBB\xBF"))
            line.remove_prefix(3); // the UTF-8 decode strips one leading BOM
    }
    if(line.empty())
    {
        // Dispatch.
        in_event_ = false;
        if(data_.empty())
        {
            type_.clear();
            return;
        }
        data_.pop_back(); // the LF after the last data line
        event_.type.clear();
        if(type_.empty())
            event_.type = "message";
        else
            event_.type.swap(type_);
        event_.data.swap(data_);
        event_.last_event_id = last_event_id_;
        on_event(std::as_const(event_));
        data_.clear();
        type_.clear();
        return;
    }
    if(line.front() == ':')
        return; // comment

    std::string_view field = line;
    std::string_view value;
    if(auto const colon = line.find(':'); colon != std::string_view::npos)
    {
        field = line.substr(0, colon);
        value = line.substr(colon + 1);
        if(!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
    }
    in_event_ = true;
    if(field == "event")
    {
        type_.clear();
        agentio::detail::append_utf8_replacing_errors(type_, value);
    }
    else if(field == "data")
    {
        agentio::detail::append_utf8_replacing_errors(data_, value);
        data_.push_back('\n');
    }
    else if(field == "id")
    {
        if(value.find('\0') == std::string_view::npos)
        {
            last_event_id_.clear();
            agentio::detail::append_utf8_replacing_errors(last_event_id_, value);
        }
    }
    else if(field == "retry")
    {
        std::uint64_t ms = 0;
        bool valid = !value.empty();
        for(char c : value)
        {
            if(c < '0' || c > '9' || ms > (UINT64_MAX - 9) / 10)
            {
                valid = false;
                break;
            }
            ms = ms * 10 + static_cast<unsigned>(c - '0');
        }
        if(valid)
            retry_ = ms;
    }
    // Any other field is ignored.
}

inline end_state parser::finish() noexcept
{
    // A pending line that is only (part of) the leading BOM is no content.
    bool const only_bom = at_start_ && std::string_view("\xEF\xBB\xBF").starts_with(line_);
    bool const pending_line = !line_.empty() && !only_bom && line_.front() != ':';
    end_state const state = (in_event_ || pending_line) ? end_state::truncated : end_state::clean;
    line_.clear();
    data_.clear();
    type_.clear();
    in_event_ = false;
    after_cr_ = false;
    return state;
}

} // namespace agentio::sse

#endif
