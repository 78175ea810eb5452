//
// agentio/http/multipart.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// multipart/form-data (RFC 7578 over RFC 2046's framing), parsed as it
// arrives: the bytes may come split anywhere, and a part's content goes to
// the caller in pieces, never held whole, so an upload can go straight to a
// file. Bounded: the head of a part and the number of parts.
//

#ifndef AGENTIO_HTTP_MULTIPART_HPP
#define AGENTIO_HTTP_MULTIPART_HPP

#include <agentio/config.hpp>

#include <boost/system/error_code.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace agentio::http {

/// Why a multipart body was refused.
enum class multipart_error
{
    /// The Content-Type is not multipart/form-data with a usable boundary.
    not_multipart = 1,
    /// Something other than a delimiter line where one must be.
    malformed_delimiter,
    /// A part's head is not header lines ended by an empty line.
    malformed_head,
    /// A part's head is larger than `multipart_limits::head_bytes`.
    head_too_large,
    /// A part without `Content-Disposition: form-data; name="…"`.
    missing_name,
    /// More parts than `multipart_limits::parts`.
    too_many_parts,
    /// The body ended before its closing delimiter.
    truncated
};

/// The error category of @ref multipart_error.
AGENTIO_DECL boost::system::error_category const& multipart_category() noexcept;

inline boost::system::error_code make_error_code(multipart_error e) noexcept
{
    return {static_cast<int>(e), multipart_category()};
}

/// A part's head: its field name, the file name when it is a file, its type.
struct multipart_part
{
    std::string name;
    /// From `filename*` (RFC 8187, UTF-8) when present, else `filename`; without any folder.
    std::optional<std::string> filename;
    /// `text/plain` when the part says nothing (RFC 7578 §4.4).
    std::string content_type = "text/plain";
};

/// What a parser accepts.
struct multipart_limits
{
    std::size_t head_bytes = 8 * 1024;
    std::size_t parts = 64;
};

/** Parses one multipart/form-data body fed in pieces of any size.

    The callbacks say what was found, in order: a part begins, its content
    in pieces (possibly empty ones never come), it ends. A callback returning
    an error stops the parse with that error.

    @code
    multipart_parser p(*multipart_boundary(content_type), {
        .part = [&](multipart_part const& head) { ...; return error_code{}; },
        .data = [&](std::string_view piece) { out.write(piece); return error_code{}; },
        .end = [&] { return error_code{}; }});
    if(auto ec = p.write(body); ec) ...
    if(auto ec = p.finish(); ec) ...
    @endcode
*/
class multipart_parser
{
public:
    struct callbacks
    {
        std::function<boost::system::error_code(multipart_part const&)> part;
        std::function<boost::system::error_code(std::string_view)> data;
        std::function<boost::system::error_code()> end;
    };

    AGENTIO_DECL multipart_parser(std::string_view boundary, callbacks handlers, multipart_limits limits = {});

    /// Parses the next bytes of the body.
    AGENTIO_DECL boost::system::error_code write(std::string_view bytes);

    /// The body is over: an error unless its closing delimiter was seen.
    AGENTIO_DECL boost::system::error_code finish();

    /// Whether the closing delimiter was seen (what follows it is ignored).
    bool done() const noexcept { return state_ == state::epilogue; }

private:
    enum class state
    {
        preamble,
        after_delimiter,
        head,
        content,
        epilogue,
        failed
    };

    boost::system::error_code parse();
    boost::system::error_code fail(boost::system::error_code ec);
    boost::system::error_code begin_part(std::string_view head);

    std::string delimiter_; // CRLF "--" boundary
    callbacks handlers_;
    multipart_limits limits_;
    std::string pending_; // bytes not yet consumed: at most a delimiter's length, or a head
    state state_ = state::preamble;
    std::size_t parts_ = 0;
    boost::system::error_code error_;
};

/// The boundary of a `multipart/form-data` Content-Type value, or `not_multipart`.
AGENTIO_DECL boost::system::result<std::string> multipart_boundary(std::string_view content_type);

} // namespace agentio::http

template<>
struct boost::system::is_error_code_enum<agentio::http::multipart_error> : std::true_type
{
};

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/http/impl/multipart.ipp>
#endif

#endif
