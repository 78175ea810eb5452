//
// agentio/http/static_files.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A built web page (a single-page app's index.html and its assets) read once
// and served from memory: only the files found at load are ever served (no
// path from a request reaches the file system), index.html for every other
// page route (the page routes itself), content-hashed assets cached for a
// year, text gzipped once at load for clients that accept it, an ETag on
// every file so a revalidation costs a 304, and a strict Content-Security-Policy.
//

#ifndef AGENTIO_HTTP_STATIC_FILES_HPP
#define AGENTIO_HTTP_STATIC_FILES_HPP

#include <agentio/config.hpp>
#include <agentio/http/server.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace agentio::http {

/// How a @ref static_files serves.
struct static_files_options
{
    /// Files whose path (relative to the folder) starts with this are named
    /// by content hash (as Vite and webpack name them): cached for a year, immutable.
    std::string immutable_prefix = "assets/";

    /// Sent with index.html. The default allows only the server's own
    /// scripts, styles and images (and data: images); empty: none.
    std::string content_security_policy =
        "default-src 'self'; img-src 'self' data:; style-src 'self'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'";

    /// The `Server` header.
    std::string server_name = "agentio";

    /// The detail of the 405 for a method other than GET and HEAD.
    std::string_view method_not_allowed = "Method not allowed; use GET";

    /// The detail of the 404 for a file that is not there; `{path}` is the path asked for.
    std::string_view not_found = "Not found: '{path}'";

    /// The HTML answered (404) to a page route when the folder had no
    /// index.html (the page is not built); empty: a plain 404.
    std::string missing_page_html = {};

    /// How error bodies are written (see server_options::error_body).
    error_body_writer error_body = {};
};

/** A folder of static files served from memory.

    @code
    auto page = agentio::http::static_files::load("web/dist");
    // in a handler, for a path outside the API:
    co_return page.serve(req, path);
    @endcode
*/
class static_files
{
public:
    /** Reads `dir`: index.html and what sits beside and below it.

        Nothing is loaded (and every page route answers `missing_page_html`)
        when `dir` is empty or has no index.html.
    */
    static static_files load(std::filesystem::path const& dir, static_files_options options = {});

    /// Whether an index.html was found.
    bool loaded() const noexcept { return index_.has_value(); }

    /// Where the files were read from.
    std::filesystem::path const& directory() const noexcept { return dir_; }

    /** The answer to `req` for `path` (the target's path): the file, or
        index.html for a path that names no file and has no extension (a page
        route), gzipped when Accept-Encoding allows, 304 when If-None-Match
        names its ETag. A HEAD gets the GET's answer (the server sends its
        header only); other methods 405.
    */
    response serve(request const& req, std::string_view path) const;

private:
    struct file
    {
        std::string body;
        std::string gzip; // empty when compressing does not pay
        std::string content_type;
        std::string cache_control;
        std::string etag; // of `body`; the gzip variant's adds "-gz"
    };
    static file make_file(std::string body, std::string content_type, std::string cache_control);

    static_files_options options_;
    std::filesystem::path dir_;
    std::map<std::string, file, std::less<>> files_; // by URL path: "/assets/index-1a2b.js"
    std::optional<file> index_;
};

} // namespace agentio::http

#ifdef AGENTIO_HEADER_ONLY
#include <agentio/http/impl/static_files.ipp>
#endif

#endif
