// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The built chat page (reference_server/portfolio/web/dist), read once at start and
// served from memory: only the files found there are ever served (no path is
// taken from a request), index.html for every other page route (the page does
// its own routing), hashed assets cached for a year. Text files are gzipped
// once at load and sent so to clients that accept it; every file has an ETag,
// so a revalidation (index.html is no-cache) costs a 304.
#pragma once

#include <agentio/http/server.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace portfolio {

class web_assets
{
public:
    /// Reads `dir` (index.html and what sits beside it, assets/ included);
    /// nothing when `dir` is empty or has no index.html.
    static web_assets load(std::filesystem::path const& dir);

    /// Whether a built page was found.
    bool loaded() const noexcept { return index_.has_value(); }

    /// Where it was read from.
    std::filesystem::path const& directory() const noexcept { return dir_; }

    /// The answer to `req` for `path` (a path outside /api/): gzip when its
    /// Accept-Encoding allows, 304 when its If-None-Match names the ETag. A
    /// HEAD gets the GET's answer: agentio::http::server sends its header only.
    agentio::http::response serve(agentio::http::request const& req, std::string_view path) const;

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
    std::filesystem::path dir_;
    std::map<std::string, file, std::less<>> files_; // by URL path: "/assets/index-1a2b.js"
    std::optional<file> index_;
};

} // namespace portfolio
