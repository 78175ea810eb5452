//
// agentio/testing/detail/fake_web_open_meteo.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Open-Meteo (docs/notes/web-tools-plan.md section 4): geocoding from the
// world's places, written as SwiftProtobuf writes them (empty fields left
// out), and a forecast whose values are deterministic functions of the
// coordinates and the day, written as the JsonWriter orders them.
//

#ifndef AGENTIO_TESTING_DETAIL_FAKE_WEB_OPEN_METEO_HPP
#define AGENTIO_TESTING_DETAIL_FAKE_WEB_OPEN_METEO_HPP

#include <agentio/json_text.hpp>
#include <agentio/testing/detail/fake_web_text.hpp>
#include <agentio/testing/detail/fake_web_world.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentio::testing::detail {

// Vapor's error body.
inline web_answer open_meteo_error(unsigned status, std::string_view reason)
{
    json::object o;
    o["error"] = true;
    o["reason"] = reason;
    return json_answer(status, to_json_text(o));
}

// A Float as SwiftProtobuf and Swift write it: single precision, shortest
// form, ".0" when whole.
inline std::string float_text(double v)
{
    char buf[48];
    auto const r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
    std::string s(buf, r.ptr);
    if(s.find_first_of(".en") == std::string::npos)
        s.append(".0");
    return s;
}

// A number parameter as Vapor decodes one; nothing when it is not a number.
inline std::optional<double> number_param(std::string_view s)
{
    while(!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    if(s.empty())
        return std::nullopt;
    double v = 0;
    if(s.front() == '+')
        s.remove_prefix(1);
    auto const r = std::from_chars(s.data(), s.data() + s.size(), v);
    if(r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

inline std::optional<std::int64_t> integer_param(std::string_view s)
{
    std::int64_t v = 0;
    auto const r = std::from_chars(s.data(), s.data() + s.size(), v);
    if(s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

inline std::vector<std::string> split_commas(std::string_view s)
{
    std::vector<std::string> out;
    while(!s.empty())
    {
        auto const comma = s.find(',');
        auto part = s.substr(0, comma);
        while(!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while(!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        if(!part.empty())
            out.emplace_back(part);
        if(comma == std::string_view::npos)
            break;
        s = s.substr(comma + 1);
    }
    return out;
}

// ================================================================================
// Geocoding
// ================================================================================

// Whether a place answers the name searched: 2 characters match a name
// exactly, 3 or more the start of one (the real index is fuzzy); any of its
// names counts.
inline bool place_matches(web_place const& p, std::string_view city, std::string_view area)
{
    std::string const wanted = lower_text(city);
    std::size_t const length = agentio::detail::utf8_code_points(city);
    auto const fits = [&](std::string const& name) {
        std::string const n = lower_text(name);
        return length == 2 ? n == wanted : n.starts_with(wanted);
    };
    bool named = fits(p.name);
    for(auto const& [lang, n] : p.names)
        named = named || fits(n);
    if(!named)
        return false;
    if(area.empty())
        return true;
    std::string const a = lower_text(area);
    for(auto const& field : {p.admin[0], p.admin[1], p.admin[2], p.admin[3], p.country, p.country_code})
        if(!field.empty() && lower_text(field).starts_with(a))
            return true;
    return false;
}

inline void append_field(std::string& out, std::string_view key, std::string_view value)
{
    if(value.empty())
        return;
    out.append(",\"").append(key).append("\":");
    append_json_string(out, value);
}

inline void append_field(std::string& out, std::string_view key, std::int64_t value)
{
    if(value == 0)
        return;
    out.append(",\"").append(key).append("\":");
    append_json_number(out, value);
}

inline void append_place(std::string& out, web_place const& p, std::string_view language)
{
    out.append("{\"id\":");
    append_json_number(out, p.id);
    append_field(out, "name", p.name_in(language));
    out.append(",\"latitude\":").append(float_text(p.latitude));
    out.append(",\"longitude\":").append(float_text(p.longitude));
    if(p.elevation != 0)
        out.append(",\"elevation\":").append(float_text(p.elevation));
    append_field(out, "feature_code", p.feature_code);
    append_field(out, "country_code", p.country_code);
    for(int i = 0; i < 4; ++i)
        append_field(out, "admin" + std::to_string(i + 1) + "_id", p.admin_id[i]);
    append_field(out, "timezone", p.timezone);
    append_field(out, "population", static_cast<std::int64_t>(p.population));
    if(!p.postcodes.empty())
    {
        out.append(",\"postcodes\":[");
        for(std::size_t i = 0; i < p.postcodes.size(); ++i)
        {
            if(i)
                out.push_back(',');
            append_json_string(out, p.postcodes[i]);
        }
        out.push_back(']');
    }
    append_field(out, "country_id", p.country_id);
    append_field(out, "country", p.country);
    for(int i = 0; i < 4; ++i)
        append_field(out, "admin" + std::to_string(i + 1), p.admin[i]);
    out.push_back('}');
}

// A generation time as the API reports it: a float with all its digits.
inline std::string generation_time(std::string_view seed)
{
    std::string out;
    append_json_number(out, 0.2 + unit_of(web_hash(seed)) * 1.1);
    return out;
}

// `GET /v1/search`.
inline web_answer geocoding_answer(web_world_model const& w, web_params const& p, std::string_view target)
{
    auto const name = p.get("name");
    if(!name)
        return open_meteo_error(400, "Value required for key 'name'.");
    std::int64_t count = 10;
    if(auto v = p.get("count"))
    {
        auto const n = integer_param(*v);
        if(!n)
            return open_meteo_error(400, "Value of type 'Int' required for key 'count'.");
        count = *n;
    }
    if(count < 1 || count > 100)
        return open_meteo_error(400, "Parameter count must be between 1 and 100.");
    std::string const format = p.get_or("format", "json");
    if(format != "json")
        return open_meteo_error(400, "Format '" + format + "' is not served by this fake (json only).");
    std::string language = lower_text(p.get_or("language", "en"));
    if(language.empty())
        language = "en";
    std::string const country = p.get_or("countryCode", "");

    std::string_view city = *name, area;
    if(auto const comma = city.find(','); comma != std::string_view::npos)
    {
        area = city.substr(comma + 1);
        city = city.substr(0, comma);
    }
    while(!city.empty() && city.back() == ' ')
        city.remove_suffix(1);
    while(!city.empty() && city.front() == ' ')
        city.remove_prefix(1);
    while(!area.empty() && area.front() == ' ')
        area.remove_prefix(1);

    std::vector<web_place const*> found;
    if(agentio::detail::utf8_code_points(city) >= 2)
        for(auto const& place : w.places)
            if(place_matches(place, city, area))
                found.push_back(&place);
    std::stable_sort(found.begin(), found.end(),
        [](web_place const* a, web_place const* b) { return a->population > b->population; });
    if(found.size() > static_cast<std::size_t>(count))
        found.resize(static_cast<std::size_t>(count));
    // The country filter runs after the cut, as the service's does (its README's TODO).
    if(!country.empty())
        std::erase_if(found, [&](web_place const* place) { return place->country_code != country; });

    std::string out = "{";
    if(!found.empty())
    {
        out.append("\"results\":[");
        for(std::size_t i = 0; i < found.size(); ++i)
        {
            if(i)
                out.push_back(',');
            append_place(out, *found[i], language);
        }
        out.append("],");
    }
    out.append("\"generationtime_ms\":").append(generation_time(target)).append("}");
    web_answer a = json_answer(200, std::move(out));
    a.chunked = true;
    return a;
}

// ================================================================================
// Forecast
// ================================================================================

struct time_zone
{
    std::string_view name;
    int offset_seconds;
};

// Fixed offsets (December): enough for the places a test names.
inline constexpr time_zone time_zones[] = {{"GMT", 0}, {"UTC", 0}, {"Europe/Madrid", 3600}, {"Europe/London", 0},
    {"Europe/Lisbon", 0}, {"Europe/Paris", 3600}, {"Europe/Berlin", 3600}, {"Europe/Rome", 3600},
    {"Atlantic/Canary", 0}, {"America/New_York", -18000}, {"America/Chicago", -21600}, {"America/Denver", -25200},
    {"America/Los_Angeles", -28800}, {"America/Mexico_City", -21600}, {"America/Bogota", -18000},
    {"America/Lima", -18000}, {"America/Santiago", -10800}, {"America/Argentina/Buenos_Aires", -10800},
    {"Asia/Tokyo", 32400}, {"Australia/Sydney", 39600}};

inline int zone_offset(std::string_view name)
{
    for(auto const& z : time_zones)
        if(z.name == name)
            return z.offset_seconds;
    return 0;
}

inline bool known_zone(std::string_view name)
{
    return std::any_of(std::begin(time_zones), std::end(time_zones),
        [&](time_zone const& z) { return z.name == name; });
}

inline std::string zone_abbreviation(int offset)
{
    if(offset == 0)
        return "GMT";
    int const hours = offset / 3600, minutes = std::abs(offset % 3600) / 60;
    std::string s = "GMT" + std::string(hours >= 0 ? "+" : "-") + std::to_string(std::abs(hours));
    if(minutes)
        s += ":" + std::to_string(minutes);
    return s;
}

// The world place nearest to the coordinates within 0.2° in each, if any.
inline web_place const* place_near(web_world_model const& w, double lat, double lon)
{
    web_place const* best = nullptr;
    double best_d = 1e9;
    for(auto const& p : w.places)
    {
        double const dlat = std::abs(p.latitude - lat), dlon = std::abs(p.longitude - lon);
        if(dlat > 0.2 || dlon > 0.2)
            continue;
        double const d = dlat * dlat + dlon * dlon;
        if(d < best_d)
        {
            best_d = d;
            best = &p;
        }
    }
    return best;
}

// One day's weather at a place: a climate from latitude and season, and
// the day's own draw from a hash of the place and the date.
struct day_weather
{
    double t_max = 0;
    double t_min = 0;
    double precipitation = 0; // mm
    double wind_max = 0;      // km/h
    double humidity = 0;      // %, the day's mean
    int code = 0;             // WMO
};

inline day_weather weather_on(double lat, double lon, std::chrono::sys_days day)
{
    std::string const seed = fixed(lat, 2) + "," + fixed(lon, 2) + "," + day_text(day);
    auto const draw = [&](int i) {
        return unit_of(web_hash(seed, 0xcbf29ce484222325ull + static_cast<std::uint64_t>(i)));
    };
    double const a = std::abs(lat);
    double const annual = 30.0 - 0.38 * a;
    double const amplitude = std::min(12.0, 0.2 * a);
    double const season = std::cos(2 * std::numbers::pi * (day_of_year(day) - 15) / 365.25); // 1 in mid-January
    double const mean = annual + (lat >= 0 ? -amplitude : amplitude) * season + (draw(0) - 0.5) * 5.0;
    double const range = 6.0 + 4.0 * draw(1);
    day_weather d;
    d.t_max = mean + range / 2;
    d.t_min = mean - range / 2;

    // The sky of the day, and its rain (snow when the day stays below 2 °C).
    struct sky
    {
        double below;
        int code;
        int cold_code;
        double base_mm;
        double spread_mm;
    };
    static constexpr sky skies[] = {{0.15, 0, 0, 0, 0}, {0.30, 1, 1, 0, 0}, {0.45, 2, 2, 0, 0}, {0.65, 3, 3, 0, 0},
        {0.70, 45, 45, 0, 0}, {0.75, 51, 71, 0.2, 0.8}, {0.85, 61, 71, 1, 4}, {0.90, 63, 73, 5, 7},
        {0.97, 80, 85, 2, 6}, {2.00, 95, 75, 8, 12}};
    double const u = draw(2);
    bool const cold = d.t_max < 2.0;
    for(auto const& s : skies)
        if(u < s.below)
        {
            d.code = cold ? s.cold_code : s.code;
            d.precipitation = s.base_mm + s.spread_mm * draw(3);
            break;
        }
    d.wind_max = 8.0 + 30.0 * draw(4) + (d.code == 95 ? 10.0 : 0.0);
    d.humidity = std::min(98.0, 55.0 + 30.0 * draw(5) + (d.precipitation > 0 ? 10.0 : 0.0));
    return d;
}

// One hour of a day (0–23, local), the curve between the night's minimum and the afternoon's maximum.
struct hour_weather
{
    double temperature;
    double humidity;
    double wind;
    double precipitation;
    int code;
};

inline hour_weather weather_at(day_weather const& d, double hour)
{
    double const warmth = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * (hour - 5.0) / 24.0); // 0 at 5:00, 1 at 17:00
    hour_weather h;
    h.temperature = d.t_min + (d.t_max - d.t_min) * warmth;
    h.humidity = std::clamp(d.humidity + 12.0 * (0.5 - warmth), 5.0, 100.0);
    h.wind = d.wind_max * (0.35 + 0.45 * warmth);
    h.precipitation = d.precipitation > 0 ? std::max(0.1, d.precipitation / 10.0) : 0.0;
    h.code = d.code;
    return h;
}

struct forecast_units
{
    bool fahrenheit = false;
    std::string_view wind = "kmh"; // kmh, ms, mph, kn
    bool inch = false;

    double temperature(double c) const { return fahrenheit ? c * 9 / 5 + 32 : c; }
    double speed(double kmh) const
    {
        return wind == "ms" ? kmh / 3.6 : wind == "mph" ? kmh / 1.609344 : wind == "kn" ? kmh / 1.852 : kmh;
    }
    double amount(double mm) const { return inch ? mm / 25.4 : mm; }
    std::string_view temperature_unit() const { return fahrenheit ? "°F" : "°C"; }
    std::string_view speed_unit() const
    {
        return wind == "ms" ? "m/s" : wind == "mph" ? "mp/h" : wind == "kn" ? "kn" : "km/h";
    }
    std::string_view amount_unit() const { return inch ? "inch" : "mm"; }
};

// The variables served, by section; each knows its unit and its value.
inline constexpr std::string_view current_variables[] = {"temperature_2m", "relative_humidity_2m", "wind_speed_10m",
    "weather_code", "apparent_temperature", "precipitation"};
inline constexpr std::string_view daily_variables[] = {"temperature_2m_max", "temperature_2m_min", "precipitation_sum",
    "weather_code", "wind_speed_10m_max"};

inline std::string_view unit_of_variable(std::string_view v, forecast_units const& u)
{
    if(v.starts_with("temperature") || v == "apparent_temperature")
        return u.temperature_unit();
    if(v == "relative_humidity_2m")
        return "%";
    if(v.starts_with("wind_speed"))
        return u.speed_unit();
    if(v == "weather_code")
        return "wmo code";
    return u.amount_unit();
}

inline std::string hour_value(std::string_view v, hour_weather const& h, forecast_units const& u)
{
    if(v == "temperature_2m")
        return fixed(u.temperature(h.temperature), 1);
    if(v == "apparent_temperature")
    {
        double const chill = h.wind > 10 ? (h.wind - 10) * 0.12 : 0.0;
        return fixed(u.temperature(h.temperature - chill - (h.humidity > 85 ? 0.6 : 0.0)), 1);
    }
    if(v == "relative_humidity_2m")
        return std::to_string(static_cast<int>(std::lround(h.humidity)));
    if(v == "wind_speed_10m")
        return fixed(u.speed(h.wind), 1);
    if(v == "weather_code")
        return std::to_string(h.code);
    return fixed(u.amount(h.precipitation), u.inch ? 3 : 1);
}

inline std::string day_value(std::string_view v, day_weather const& d, forecast_units const& u)
{
    if(v == "temperature_2m_max")
        return fixed(u.temperature(d.t_max), 1);
    if(v == "temperature_2m_min")
        return fixed(u.temperature(d.t_min), 1);
    if(v == "precipitation_sum")
        return fixed(u.amount(d.precipitation), u.inch ? 3 : 1);
    if(v == "weather_code")
        return std::to_string(d.code);
    return fixed(u.speed(d.wind_max), 1);
}

struct forecast_request
{
    double latitude = 0;
    double longitude = 0;
    std::vector<std::string> current, hourly, daily;
    std::string timezone = "GMT";
    std::optional<double> elevation;
    std::int64_t days = 7;
    forecast_units units;
};

// One location's forecast object, keys in the JsonWriter's order.
inline std::string forecast_object(web_world_model const& w, forecast_request const& r, std::chrono::sys_days today,
    std::string_view target)
{
    web_place const* near = place_near(w, r.latitude, r.longitude);
    std::string zone = r.timezone;
    if(zone == "auto")
        zone = near && !near->timezone.empty() ? near->timezone : "GMT";
    if(zone == "UTC")
        zone = "GMT";
    int const offset = zone_offset(zone);
    double const elevation = r.elevation ? *r.elevation
        : near                           ? near->elevation
               : rounded(600.0 * unit_of(web_hash(fixed(r.latitude, 2) + fixed(r.longitude, 2))), 0);
    forecast_units const& u = r.units;

    std::string out = "{\"latitude\":" + float_text(std::round(r.latitude * 16) / 16);
    out.append(",\"longitude\":").append(float_text(std::round(r.longitude * 16) / 16));
    out.append(",\"generationtime_ms\":").append(generation_time(target));
    out.append(",\"utc_offset_seconds\":").append(std::to_string(offset));
    out.append(",\"timezone\":");
    append_json_string(out, zone);
    out.append(",\"timezone_abbreviation\":");
    append_json_string(out, zone_abbreviation(offset));
    out.append(",\"elevation\":").append(float_text(elevation));

    day_weather const first = weather_on(r.latitude, r.longitude, today);
    if(!r.current.empty())
    {
        out.append(",\"current_units\":{\"time\":\"iso8601\",\"interval\":\"seconds\"");
        for(auto const& v : r.current)
        {
            out.append(",");
            append_json_string(out, v);
            out.push_back(':');
            append_json_string(out, unit_of_variable(v, u));
        }
        out.append("},\"current\":{\"time\":\"").append(day_text(today)).append("T10:15\",\"interval\":900");
        hour_weather const now = weather_at(first, 10.25);
        for(auto const& v : r.current)
        {
            out.append(",");
            append_json_string(out, v);
            out.push_back(':');
            out.append(hour_value(v, now, u));
        }
        out.push_back('}');
    }
    if(!r.hourly.empty())
    {
        out.append(",\"hourly_units\":{\"time\":\"iso8601\"");
        for(auto const& v : r.hourly)
        {
            out.append(",");
            append_json_string(out, v);
            out.push_back(':');
            append_json_string(out, unit_of_variable(v, u));
        }
        out.append("},\"hourly\":{\"time\":[");
        for(std::int64_t d = 0; d < r.days; ++d)
            for(int h = 0; h < 24; ++h)
            {
                if(d || h)
                    out.push_back(',');
                char hour[24]; // room for any int: GCC checks the format against the type's range
                std::snprintf(hour, sizeof hour, "T%02d:00", h);
                out.append("\"").append(day_text(today + std::chrono::days(d))).append(hour).append("\"");
            }
        out.push_back(']');
        for(auto const& v : r.hourly)
        {
            out.append(",");
            append_json_string(out, v);
            out.append(":[");
            for(std::int64_t d = 0; d < r.days; ++d)
            {
                day_weather const dw = weather_on(r.latitude, r.longitude, today + std::chrono::days(d));
                for(int h = 0; h < 24; ++h)
                {
                    if(d || h)
                        out.push_back(',');
                    out.append(hour_value(v, weather_at(dw, h), u));
                }
            }
            out.push_back(']');
        }
        out.push_back('}');
    }
    if(!r.daily.empty())
    {
        out.append(",\"daily_units\":{\"time\":\"iso8601\"");
        for(auto const& v : r.daily)
        {
            out.append(",");
            append_json_string(out, v);
            out.push_back(':');
            append_json_string(out, unit_of_variable(v, u));
        }
        out.append("},\"daily\":{\"time\":[");
        for(std::int64_t d = 0; d < r.days; ++d)
        {
            if(d)
                out.push_back(',');
            out.append("\"").append(day_text(today + std::chrono::days(d))).append("\"");
        }
        out.push_back(']');
        for(auto const& v : r.daily)
        {
            out.append(",");
            append_json_string(out, v);
            out.append(":[");
            for(std::int64_t d = 0; d < r.days; ++d)
            {
                if(d)
                    out.push_back(',');
                out.append(day_value(v, weather_on(r.latitude, r.longitude, today + std::chrono::days(d)), u));
            }
            out.push_back(']');
        }
        out.push_back('}');
    }
    out.push_back('}');
    return out;
}

// The variables of a section, or the API's error for the first it does not know.
inline std::optional<web_answer> read_variables(web_params const& p, std::string_view key,
    std::span<std::string_view const> known, std::vector<std::string>& out)
{
    auto const v = p.get(key);
    if(!v)
        return std::nullopt;
    for(auto& name : split_commas(*v))
    {
        if(std::find(known.begin(), known.end(), name) == known.end())
            return open_meteo_error(400,
                "Cannot initialize WeatherVariable from invalid String value " + name + " for key " + std::string(key));
        out.push_back(std::move(name));
    }
    return std::nullopt;
}

// `GET /v1/forecast`.
inline web_answer forecast_answer(web_world_model const& w, web_params const& p, std::chrono::sys_days today,
    std::string_view target)
{
    auto const lats = split_commas(p.get_or("latitude", ""));
    auto const lons = split_commas(p.get_or("longitude", ""));
    if(lats.empty() || lons.empty())
        return open_meteo_error(400, "Parameter 'latitude' and 'longitude' must not be empty");
    if(lats.size() != lons.size())
        return open_meteo_error(400, "Parameter 'latitude' and 'longitude' must have the same number of elements");

    forecast_request base;
    if(auto failure = read_variables(p, "current", current_variables, base.current))
        return std::move(*failure);
    if(auto failure = read_variables(p, "hourly", current_variables, base.hourly))
        return std::move(*failure);
    if(auto failure = read_variables(p, "daily", daily_variables, base.daily))
        return std::move(*failure);
    if(auto v = p.get("forecast_days"))
    {
        auto const n = integer_param(*v);
        if(!n)
            return open_meteo_error(400, "Value of type 'Int' required for key 'forecast_days'.");
        // The service prints the maximum as "Given" (ForecastapiController at the note's commit).
        if(*n < 0 || *n > 16)
            return open_meteo_error(400, "Forecast days is invalid. Allowed range 0 to 16. Given 16.");
        base.days = *n;
    }
    if(auto v = p.get("timezone"))
    {
        if(*v != "auto" && !known_zone(*v))
            return open_meteo_error(400, "Invalid timezone");
        base.timezone = *v;
    }
    if(auto v = p.get("temperature_unit"); v && *v != "celsius")
    {
        if(*v != "fahrenheit")
            return open_meteo_error(400,
                "Cannot initialize TemperatureUnit from invalid String value " + *v + " for key temperature_unit");
        base.units.fahrenheit = true;
    }
    if(auto v = p.get("wind_speed_unit"))
    {
        static constexpr std::string_view speeds[] = {"kmh", "ms", "mph", "kn"};
        auto const it = std::find(std::begin(speeds), std::end(speeds), *v);
        if(it == std::end(speeds))
            return open_meteo_error(400,
                "Cannot initialize WindspeedUnit from invalid String value " + *v + " for key wind_speed_unit");
        base.units.wind = *it;
    }
    if(auto v = p.get("precipitation_unit"); v && *v != "mm")
    {
        if(*v != "inch")
            return open_meteo_error(400,
                "Cannot initialize PrecipitationUnit from invalid String value " + *v + " for key precipitation_unit");
        base.units.inch = true;
    }
    if(auto v = p.get("elevation"))
        if(auto const e = number_param(*v))
            base.elevation = *e;

    std::vector<std::string> objects;
    for(std::size_t i = 0; i < lats.size(); ++i)
    {
        auto const lat = number_param(lats[i]);
        auto const lon = number_param(lons[i]);
        if(!lat)
            return open_meteo_error(400, "Value of type 'Float' required for key 'latitude'.");
        if(!lon)
            return open_meteo_error(400, "Value of type 'Float' required for key 'longitude'.");
        if(*lat < -90 || *lat > 90)
            return open_meteo_error(400, "Latitude must be in range of -90 to 90°. Given: " + float_text(*lat) + ".");
        if(*lon < -180 || *lon > 180)
            return open_meteo_error(400,
                "Longitude must be in range of -180 to 180°. Given: " + float_text(*lon) + ".");
        forecast_request r = base;
        r.latitude = *lat;
        r.longitude = *lon;
        objects.push_back(forecast_object(w, r, today, target));
    }
    std::string body;
    if(objects.size() == 1)
        body = std::move(objects.front());
    else
    {
        body = "[";
        for(std::size_t i = 0; i < objects.size(); ++i)
            body.append(i ? "," : "").append(objects[i]);
        body.push_back(']');
    }
    web_answer a = json_answer(200, std::move(body));
    a.chunked = true;
    return a;
}

} // namespace agentio::testing::detail

#endif
