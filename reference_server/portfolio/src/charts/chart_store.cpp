// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "charts/chart_store.hpp"

#include <openssl/rand.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace portfolio::charts {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view temp_suffix = ".tmp";

std::string random_name()
{
    unsigned char bytes[16];
    if(RAND_bytes(bytes, sizeof bytes) != 1)
        throw std::runtime_error("chart_store: OpenSSL no ha podido generar bytes aleatorios (RAND_bytes)");
    static constexpr char hex[] = "0123456789abcdef";
    std::string name;
    name.reserve(36);
    for(unsigned char b : bytes)
    {
        name.push_back(hex[b >> 4]);
        name.push_back(hex[b & 0xF]);
    }
    return name + ".png";
}

[[noreturn]] void fail(std::string const& what, fs::path const& path, int error)
{
    throw std::runtime_error("chart_store: " + what + " " + path.string() + ": " + std::strerror(error));
}

/// The whole buffer to a new file (never an existing one, never through a symlink).
void write_new_file(fs::path const& path, std::span<unsigned char const> data)
{
    int const fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if(fd < 0)
        fail("no se puede crear", path, errno);
    std::size_t done = 0;
    while(done < data.size())
    {
        ssize_t const n = ::write(fd, data.data() + done, data.size() - done);
        if(n < 0 && errno == EINTR)
            continue;
        if(n <= 0)
        {
            int const error = n < 0 ? errno : EIO;
            ::close(fd);
            ::unlink(path.c_str());
            fail("no se puede escribir", path, error);
        }
        done += static_cast<std::size_t>(n);
    }
    if(::close(fd) != 0)
    {
        int const error = errno;
        ::unlink(path.c_str());
        fail("no se puede cerrar", path, error);
    }
}

} // namespace

bool chart_store::is_chart_name(std::string_view file_name) noexcept
{
    if(file_name.size() != 36 || file_name.substr(32) != ".png")
        return false;
    for(char c : file_name.substr(0, 32))
        if(!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

chart_store::chart_store(fs::path dir, std::chrono::seconds max_age) : dir_(std::move(dir)), max_age_(max_age)
{
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if(ec || !fs::is_directory(dir_, ec))
        throw std::runtime_error("chart_store: no se puede crear el directorio " + dir_.string() +
            (ec ? ": " + ec.message() : ""));
}

std::string chart_store::save(std::span<unsigned char const> png)
{
    std::string const name = random_name();
    fs::path const final_path = dir_ / name;
    fs::path const temp_path = dir_ / (name + std::string(temp_suffix));
    write_new_file(temp_path, png);
    // rename() is atomic: a reader sees the whole chart or no file at all.
    if(::rename(temp_path.c_str(), final_path.c_str()) != 0)
    {
        int const error = errno;
        ::unlink(temp_path.c_str());
        fail("no se puede renombrar", temp_path, error);
    }
    return name;
}

std::optional<fs::path> chart_store::find(std::string_view file_name) const
{
    if(!is_chart_name(file_name))
        return std::nullopt;
    fs::path path = dir_ / fs::path(file_name);
    std::error_code ec;
    // symlink_status does not follow a link: a symlink is not a chart, wherever it points.
    if(fs::symlink_status(path, ec).type() != fs::file_type::regular || ec)
        return std::nullopt;
    return path;
}

std::size_t chart_store::remove_expired()
{
    auto const now = fs::file_time_type::clock::now();
    std::size_t removed = 0;
    std::error_code ec;
    fs::directory_iterator it(dir_, ec);
    for(; !ec && it != fs::directory_iterator(); it.increment(ec))
    {
        std::string const name = it->path().filename().string();
        bool const temp = name.size() > temp_suffix.size() && name.ends_with(temp_suffix);
        if(!is_chart_name(temp ? std::string_view(name).substr(0, name.size() - temp_suffix.size()) : name))
            continue;
        std::error_code file_ec;
        if(it->symlink_status(file_ec).type() != fs::file_type::regular || file_ec)
            continue;
        auto const modified = fs::last_write_time(it->path(), file_ec);
        if(file_ec || now - modified <= max_age_)
            continue;
        if(fs::remove(it->path(), file_ec) && !file_ec)
            ++removed;
    }
    return removed;
}

} // namespace portfolio::charts
