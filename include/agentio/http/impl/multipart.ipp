//
// agentio/http/impl/multipart.ipp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_HTTP_IMPL_MULTIPART_IPP
#define AGENTIO_HTTP_IMPL_MULTIPART_IPP

#include <agentio/http/multipart.hpp>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace agentio::http {

namespace detail {

class multipart_category_impl final : public boost::system::error_category
{
public:
    char const* name() const noexcept override { return "agentio.multipart"; }
    std::string message(int ev) const override
    {
        switch(static_cast<multipart_error>(ev))
        {
        case multipart_error::not_multipart: return "not multipart/form-data with a boundary";
        case multipart_error::malformed_delimiter: return "a malformed multipart delimiter line";
        case multipart_error::malformed_head: return "a malformed part head";
        case multipart_error::head_too_large: return "a part's head is too large";
        case multipart_error::missing_name: return "a part without Content-Disposition: form-data; name=\"...\"";
        case multipart_error::too_many_parts: return "too many parts";
        case multipart_error::truncated: return "the multipart body ends before its closing delimiter";
        }
        return "multipart error";
    }
};

inline bool iequal(std::string_view a, std::string_view b) noexcept
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

inline std::string_view trim(std::string_view s) noexcept
{
    while(!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while(!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

inline bool is_token_char(char c) noexcept
{
    auto const u = static_cast<unsigned char>(c);
    return u > 32 && u < 127 && std::string_view("()<>@,;:\\\"/[]?={}").find(c) == std::string_view::npos;
}

/// `type; a=b; c="d"` → the type and its parameters (names in lower case); nothing when malformed.
inline std::optional<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
parse_parameters(std::string_view value)
{
    std::vector<std::pair<std::string, std::string>> parameters;
    std::size_t i = 0;
    auto skip_space = [&] {
        while(i < value.size() && (value[i] == ' ' || value[i] == '\t'))
            ++i;
    };
    skip_space();
    std::size_t const start = i;
    while(i < value.size() && value[i] != ';')
        ++i;
    std::string type(trim(value.substr(start, i - start)));
    if(type.empty())
        return std::nullopt;
    while(i < value.size())
    {
        ++i; // ';'
        skip_space();
        if(i == value.size())
            break; // a trailing ';'
        std::size_t const name_start = i;
        while(i < value.size() && is_token_char(value[i]))
            ++i;
        std::string name(value.substr(name_start, i - name_start));
        skip_space();
        if(name.empty() || i == value.size() || value[i] != '=')
            return std::nullopt;
        ++i;
        skip_space();
        std::string v;
        if(i < value.size() && value[i] == '"')
        {
            ++i;
            bool closed = false;
            while(i < value.size())
            {
                char const c = value[i++];
                if(c == '"')
                {
                    closed = true;
                    break;
                }
                if(c == '\\' && i < value.size())
                    v.push_back(value[i++]);
                else
                    v.push_back(c);
            }
            if(!closed)
                return std::nullopt;
        }
        else
        {
            std::size_t const v_start = i;
            while(i < value.size() && value[i] != ';' && value[i] != ' ' && value[i] != '\t')
                ++i;
            v = value.substr(v_start, i - v_start);
        }
        skip_space();
        if(i < value.size() && value[i] != ';')
            return std::nullopt;
        std::transform(name.begin(), name.end(), name.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        parameters.emplace_back(std::move(name), std::move(v));
    }
    return std::pair{std::move(type), std::move(parameters)};
}

/// RFC 8187's `UTF-8''percent%20encoded` (other charsets are refused).
inline std::optional<std::string> decode_extended_value(std::string_view v)
{
    auto const quote = v.find('\'');
    if(quote == std::string_view::npos)
        return std::nullopt;
    if(!iequal(v.substr(0, quote), "utf-8"))
        return std::nullopt;
    auto const second = v.find('\'', quote + 1);
    if(second == std::string_view::npos)
        return std::nullopt;
    std::string out;
    for(std::size_t i = second + 1; i < v.size(); ++i)
    {
        if(v[i] != '%')
        {
            out.push_back(v[i]);
            continue;
        }
        if(i + 2 >= v.size() || !std::isxdigit(static_cast<unsigned char>(v[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(v[i + 2])))
            return std::nullopt;
        out.push_back(static_cast<char>(std::stoi(std::string(v.substr(i + 1, 2)), nullptr, 16)));
        i += 2;
    }
    return out;
}

/// A file name without any folder a client put in it.
inline std::string base_name(std::string_view name)
{
    auto const slash = name.find_last_of("/\\");
    if(slash != std::string_view::npos)
        name.remove_prefix(slash + 1);
    return std::string(name);
}

} // namespace detail

AGENTIO_DECL boost::system::error_category const& multipart_category() noexcept
{
    static detail::multipart_category_impl const category;
    return category;
}

AGENTIO_DECL boost::system::result<std::string> multipart_boundary(std::string_view content_type)
{
    auto parsed = detail::parse_parameters(content_type);
    if(!parsed || !detail::iequal(parsed->first, "multipart/form-data"))
        return make_error_code(multipart_error::not_multipart);
    for(auto const& [name, value] : parsed->second)
    {
        if(name != "boundary")
            continue;
        // RFC 2046 §5.1.1: 1 to 70 of these, not ending with a space.
        if(value.empty() || value.size() > 70 || value.back() == ' ')
            return make_error_code(multipart_error::not_multipart);
        for(char c : value)
            if(!std::isalnum(static_cast<unsigned char>(c)) &&
                std::string_view("'()+_,-./:=? ").find(c) == std::string_view::npos)
                return make_error_code(multipart_error::not_multipart);
        return value;
    }
    return make_error_code(multipart_error::not_multipart);
}

AGENTIO_DECL multipart_parser::multipart_parser(std::string_view boundary, callbacks handlers, multipart_limits limits)
    : delimiter_("\r\n--" + std::string(boundary))
    , handlers_(std::move(handlers))
    , limits_(limits)
    , pending_("\r\n") // the first delimiter may open the body: it then follows this line break
{
}

AGENTIO_DECL boost::system::error_code multipart_parser::fail(boost::system::error_code ec)
{
    state_ = state::failed;
    error_ = ec;
    pending_.clear();
    return ec;
}

AGENTIO_DECL boost::system::error_code multipart_parser::write(std::string_view bytes)
{
    if(state_ == state::failed)
        return error_;
    // In slices, so that what is held stays near a slice whatever the caller passes.
    constexpr std::size_t slice = 64 * 1024;
    while(!bytes.empty() && state_ != state::epilogue)
    {
        auto const n = std::min(bytes.size(), slice);
        pending_.append(bytes.data(), n);
        bytes.remove_prefix(n);
        if(auto ec = parse())
            return ec;
    }
    return {};
}

AGENTIO_DECL boost::system::error_code multipart_parser::finish()
{
    if(state_ == state::failed)
        return error_;
    if(state_ != state::epilogue)
        return fail(make_error_code(multipart_error::truncated));
    return {};
}

AGENTIO_DECL boost::system::error_code multipart_parser::begin_part(std::string_view head)
{
    if(++parts_ > limits_.parts)
        return make_error_code(multipart_error::too_many_parts);
    multipart_part part;
    bool named = false;
    while(!head.empty())
    {
        auto const end = head.find("\r\n");
        std::string_view const line = head.substr(0, end);
        head = end == std::string_view::npos ? std::string_view() : head.substr(end + 2);
        if(line.empty())
            continue;
        auto const colon = line.find(':');
        // No name, or a folded line (obsolete, and refused by RFC 7578).
        if(colon == std::string_view::npos || colon == 0 || line.front() == ' ' || line.front() == '\t')
            return make_error_code(multipart_error::malformed_head);
        auto const name = line.substr(0, colon);
        auto const value = detail::trim(line.substr(colon + 1));
        if(detail::iequal(name, "content-disposition"))
        {
            auto parsed = detail::parse_parameters(value);
            if(!parsed || !detail::iequal(parsed->first, "form-data"))
                return make_error_code(multipart_error::missing_name);
            std::optional<std::string> plain, extended;
            for(auto& [key, v] : parsed->second)
            {
                if(key == "name")
                {
                    part.name = std::move(v);
                    named = true;
                }
                else if(key == "filename")
                    plain = std::move(v);
                else if(key == "filename*")
                    extended = detail::decode_extended_value(v);
            }
            if(extended)
                part.filename = detail::base_name(*extended);
            else if(plain)
                part.filename = detail::base_name(*plain);
        }
        else if(detail::iequal(name, "content-type"))
        {
            if(!value.empty())
                part.content_type = std::string(value);
        }
    }
    if(!named || part.name.empty())
        return make_error_code(multipart_error::missing_name);
    return handlers_.part ? handlers_.part(part) : boost::system::error_code{};
}

AGENTIO_DECL boost::system::error_code multipart_parser::parse()
{
    for(;;)
    {
        switch(state_)
        {
        case state::preamble:
        case state::content:
        {
            auto const at = std::string_view(pending_).find(delimiter_);
            if(at == std::string_view::npos)
            {
                // Everything but what could be the start of a delimiter is content (or preamble, dropped).
                auto const keep = std::min(pending_.size(), delimiter_.size() - 1);
                auto const sure = pending_.size() - keep;
                if(state_ == state::content && sure > 0 && handlers_.data)
                    if(auto ec = handlers_.data(std::string_view(pending_).substr(0, sure)))
                        return fail(ec);
                pending_.erase(0, sure);
                return {};
            }
            if(state_ == state::content)
            {
                if(at > 0 && handlers_.data)
                    if(auto ec = handlers_.data(std::string_view(pending_).substr(0, at)))
                        return fail(ec);
                if(handlers_.end)
                    if(auto ec = handlers_.end())
                        return fail(ec);
            }
            pending_.erase(0, at + delimiter_.size());
            state_ = state::after_delimiter;
            break;
        }
        case state::after_delimiter:
        {
            if(pending_.size() < 2)
                return {};
            if(pending_.compare(0, 2, "--") == 0)
            {
                state_ = state::epilogue;
                pending_.clear();
                return {};
            }
            // Transport padding (spaces and tabs), then the line break.
            std::size_t i = 0;
            while(i < pending_.size() && (pending_[i] == ' ' || pending_[i] == '\t'))
                ++i;
            if(i > 1024) // padding without end: refused however the bytes came
                return fail(make_error_code(multipart_error::malformed_delimiter));
            if(i == pending_.size())
                return {};
            if(pending_[i] != '\r')
                return fail(make_error_code(multipart_error::malformed_delimiter));
            if(i + 1 == pending_.size())
                return {};
            if(pending_[i + 1] != '\n')
                return fail(make_error_code(multipart_error::malformed_delimiter));
            pending_.erase(0, i + 2);
            state_ = state::head;
            break;
        }
        case state::head:
        {
            std::size_t head_end = std::string_view::npos, content_start = 0;
            if(pending_.size() >= 2 && pending_.compare(0, 2, "\r\n") == 0)
            {
                head_end = 0; // no header at all
                content_start = 2;
            }
            else if(auto const at = std::string_view(pending_).find("\r\n\r\n"); at != std::string_view::npos)
            {
                head_end = at + 2;
                content_start = at + 4;
            }
            if(head_end == std::string_view::npos)
            {
                // The end not yet here: a head ending at the limit still needs its last line break (and the
                // empty line's first byte may be the last here), so only more than that is too large already.
                if(pending_.size() > limits_.head_bytes + 1)
                    return fail(make_error_code(multipart_error::head_too_large));
                return {};
            }
            if(head_end > limits_.head_bytes)
                return fail(make_error_code(multipart_error::head_too_large));
            if(auto ec = begin_part(std::string_view(pending_).substr(0, head_end)))
                return fail(ec);
            // An empty content is nothing at all: the line break before the
            // next delimiter belongs to the delimiter.
            pending_.erase(0, content_start);
            state_ = state::content;
            break;
        }
        case state::epilogue: pending_.clear(); return {};
        case state::failed: return error_;
        }
    }
}

} // namespace agentio::http

#endif
