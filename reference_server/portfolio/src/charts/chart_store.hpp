// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Rendered charts on disk, served back by name. Names are 128 random bits
// (OpenSSL RAND_bytes) in lowercase hex, so a chart's URL is its only key;
// find() accepts nothing but such a name of a regular file in the directory,
// and remove_expired() deletes nothing but such files (and the store's own
// abandoned temporary files).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace portfolio::charts {

class chart_store
{
public:
    /// Creates `dir` (and its parents) if missing. Throws std::runtime_error when it cannot.
    chart_store(std::filesystem::path dir, std::chrono::seconds max_age);

    /// Writes atomically (temp file + rename) under an unguessable name: 32 lowercase hex chars from
    /// OpenSSL RAND_bytes (16 bytes) + ".png". Returns the file name (not the path). Throws std::runtime_error
    /// on I/O error.
    std::string save(std::span<unsigned char const> png);

    /// The path of a chart this store wrote, only if `file_name` matches ^[0-9a-f]{32}\.png$ exactly and the
    /// file exists in dir and is a regular file (no traversal, no symlinks followed out of dir). Else nullopt.
    std::optional<std::filesystem::path> find(std::string_view file_name) const;

    /// Removes store-named files older than max_age (mtime); returns how many. Never touches other files.
    /// Temporary files of the store ("<name>.png.tmp") left by a crash count too.
    std::size_t remove_expired();

    std::filesystem::path const& directory() const noexcept { return dir_; }
    std::chrono::seconds max_age() const noexcept { return max_age_; }

    /// True when `file_name` is exactly 32 lowercase hex characters followed by ".png".
    static bool is_chart_name(std::string_view file_name) noexcept;

private:
    std::filesystem::path dir_;
    std::chrono::seconds max_age_;
};

} // namespace portfolio::charts
