// Deterministic generator of the sample "Portfolio Digital" database.
//
// Determinism: every random decision comes from our own xoshiro256** generator
// (seeded through splitmix64, one independent stream per initiative and pass),
// normal variates use the Irwin-Hall sum of 12 uniforms (pure IEEE additions);
// the only libm call is std::exp for log-normal amounts, which are rounded to
// cents afterwards. "Today" is fixed at 2025-06-30. Fixed pragmas, fixed
// insertion order and a final VACUUM give a byte-identical file for the same
// (seed, initiatives).
#include "portfolio/db_generator.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace portfolio {
namespace {

using i64 = long long;
using OptMoney = std::optional<i64>;   // amounts are kept in integer cents

// ───────────────────────────── PRNG ─────────────────────────────

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

class Rng {
public:
    explicit Rng(std::uint64_t seed) {
        std::uint64_t x = seed;
        for (auto& w : s_) w = splitmix64(x);
    }
    /// Independent stream for (seed, purpose, index).
    static Rng stream(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index) {
        std::uint64_t x = seed;
        std::uint64_t a = splitmix64(x);
        x = a ^ (purpose * 0xD1B54A32D192ED03ULL);
        std::uint64_t b = splitmix64(x);
        x = b ^ (index * 0xABC98388FB8FAC03ULL + 0x8CB92BA72F3D8DD7ULL);
        return Rng(splitmix64(x));
    }
    std::uint64_t next() {
        std::uint64_t const result = rotl(s_[1] * 5, 7) * 9;
        std::uint64_t const t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double uniform(double a, double b) { return a + (b - a) * uniform(); }
    /// Inclusive integer range.
    int range(int lo, int hi) {
        if (hi <= lo) return lo;
        auto const n = static_cast<std::uint64_t>(static_cast<i64>(hi) - lo + 1);
        return lo + static_cast<int>(next() % n);
    }
    std::size_t index(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
    bool chance(double p) { return uniform() < p; }
    /// Approximately standard normal (Irwin-Hall, bounded to ±6).
    double normal() {
        double s = 0.0;
        for (int i = 0; i < 12; ++i) s += uniform();
        return s - 6.0;
    }
    double lognormal(double mu, double sigma) { return std::exp(mu + sigma * normal()); }
    std::size_t weighted(std::span<double const> w) {
        double total = 0.0;
        for (double x : w) total += x;
        double u = uniform() * total;
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w[i] <= 0.0) continue;
            if (u < w[i]) return i;
            u -= w[i];
        }
        for (std::size_t i = w.size(); i-- > 0;)
            if (w[i] > 0.0) return i;
        return 0;
    }
    template <class C>
    auto const& pick(C const& c) {
        return c[index(std::size(c))];
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4]{};
};

// ───────────────────────────── Dates ─────────────────────────────

struct Date {
    int n = 0;   // days since 1970-01-01

    static Date ymd(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        int const era = (y >= 0 ? y : y - 399) / 400;
        int const yoe = y - era * 400;
        int const doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        int const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return Date{era * 146097 + doe - 719468};
    }
    void civil(int& y, int& m, int& d) const {
        int z = n + 719468;
        int const era = (z >= 0 ? z : z - 146096) / 146097;
        int const doe = z - era * 146097;
        int const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        y = yoe + era * 400;
        int const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        int const mp = (5 * doy + 2) / 153;
        d = doy - (153 * mp + 2) / 5 + 1;
        m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2) ++y;
    }
    int year() const { int y, m, d; civil(y, m, d); return y; }
    int month() const { int y, m, d; civil(y, m, d); return m; }
    int day() const { int y, m, d; civil(y, m, d); return d; }
    int month_index() const { int y, m, d; civil(y, m, d); return y * 12 + (m - 1); }
    std::string iso() const {
        int y, m, d;
        civil(y, m, d);
        char buf[16];
        buf[0] = static_cast<char>('0' + (y / 1000) % 10);
        buf[1] = static_cast<char>('0' + (y / 100) % 10);
        buf[2] = static_cast<char>('0' + (y / 10) % 10);
        buf[3] = static_cast<char>('0' + y % 10);
        buf[4] = '-';
        buf[5] = static_cast<char>('0' + m / 10);
        buf[6] = static_cast<char>('0' + m % 10);
        buf[7] = '-';
        buf[8] = static_cast<char>('0' + d / 10);
        buf[9] = static_cast<char>('0' + d % 10);
        return std::string(buf, 10);
    }
    friend Date operator+(Date a, int k) { return Date{a.n + k}; }
    friend Date operator-(Date a, int k) { return Date{a.n - k}; }
    friend int operator-(Date a, Date b) { return a.n - b.n; }
    friend bool operator==(Date const&, Date const&) = default;
    friend auto operator<=>(Date const&, Date const&) = default;
};

int days_in_month(int y, int m) {
    Date const a = Date::ymd(y, m, 1);
    Date const b = m == 12 ? Date::ymd(y + 1, 1, 1) : Date::ymd(y, m + 1, 1);
    return b - a;
}
Date from_month_index(int mi, int day) {
    int const y = mi / 12, m = mi % 12 + 1;
    return Date::ymd(y, m, std::min(day, days_in_month(y, m)));
}
Date add_months(Date d, int k) {
    return from_month_index(d.month_index() + k, d.day());
}
Date month_end(int mi) { return from_month_index(mi, 31); }
Date quarter_end_of(Date d) {
    int const mi = d.month_index();
    return month_end(mi - mi % 3 + 2);
}
Date min(Date a, Date b) { return a < b ? a : b; }
Date max(Date a, Date b) { return a < b ? b : a; }
Date clamp(Date d, Date lo, Date hi) { return d < lo ? lo : (hi < d ? hi : d); }
/// Number of calendar months of year `y` overlapped by [a, b].
int months_overlap(Date a, Date b, int y) {
    if (b < a) return 0;
    int const lo = std::max(a.month_index(), y * 12);
    int const hi = std::min(b.month_index(), y * 12 + 11);
    return std::max(0, hi - lo + 1);
}

Date const kToday = Date::ymd(2025, 6, 30);
constexpr int kFirstYear = 2024;   // amount columns cover 2024..2028
constexpr int kNumYears = 5;

// ───────────────────────────── Text helpers ─────────────────────────────

void app(std::string& s, std::string_view v) { s.append(v); }
void app(std::string& s, char c) { s.push_back(c); }
void app(std::string& s, int v) { s += std::to_string(v); }
template <class... A>
std::string cat(A const&... a) {
    std::string s;
    (app(s, a), ...);
    return s;
}

constexpr std::string_view kMeses[] = {"enero", "febrero", "marzo", "abril", "mayo", "junio",
                                       "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"};

std::string fecha_larga(Date d) {
    int y, m, dd;
    d.civil(y, m, dd);
    return cat(dd, " de ", kMeses[m - 1], " de ", y);
}
std::string mes_anio(Date d) {
    int y, m, dd;
    d.civil(y, m, dd);
    return cat(kMeses[m - 1], " de ", y);
}
std::string group_thousands(i64 v) {
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    int const len = static_cast<int>(digits.size());
    for (int i = 0; i < len; ++i) {
        if (i > 0 && (len - i) % 3 == 0) out.push_back('.');
        out.push_back(digits[static_cast<std::size_t>(i)]);
    }
    return v < 0 ? "-" + out : out;
}
/// Spanish euro formatting: "1.250.000 €" (rounded to euros) or "1.250.000,50 €".
std::string eur(i64 cents, bool with_cents = false) {
    if (!with_cents) {
        i64 const euros = cents >= 0 ? (cents + 50) / 100 : -((-cents + 50) / 100);
        return group_thousands(euros) + " €";
    }
    i64 const a = cents < 0 ? -cents : cents;
    std::string s = group_thousands(a / 100);
    i64 const c = a % 100;
    s += ',';
    s += static_cast<char>('0' + c / 10);
    s += static_cast<char>('0' + c % 10);
    return (cents < 0 ? "-" : "") + s + " €";
}
double round1(double x) { return std::round(x * 10.0) / 10.0; }
/// "12,5" style percentage number (one decimal, comma).
std::string num1(double x) {
    i64 const t = static_cast<i64>(std::llround(x * 10.0));
    i64 const a = t < 0 ? -t : t;
    std::string s = (t < 0 ? "-" : "") + group_thousands(a / 10);
    s += ',';
    s += static_cast<char>('0' + a % 10);
    return s;
}
std::string lower_first(std::string_view s) {
    std::string r(s);
    if (!r.empty() && r[0] >= 'A' && r[0] <= 'Z') r[0] = static_cast<char>(r[0] - 'A' + 'a');
    return r;
}
std::string upper_first(std::string_view s) {
    std::string r(s);
    if (!r.empty() && r[0] >= 'a' && r[0] <= 'z') r[0] = static_cast<char>(r[0] - 'a' + 'A');
    return r;
}
/// ASCII folding of the Spanish accented letters (used for file names and sort keys).
std::string fold_ascii(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
            continue;
        }
        if (c == 0xC3 && i + 1 < s.size()) {
            auto const d = static_cast<unsigned char>(s[i + 1]);
            char r = 0;
            switch (d) {
                case 0xA1: case 0xA0: case 0xA4: r = 'a'; break;
                case 0xA9: case 0xA8: case 0xAB: r = 'e'; break;
                case 0xAD: case 0xAC: case 0xAF: r = 'i'; break;
                case 0xB3: case 0xB2: case 0xB6: r = 'o'; break;
                case 0xBA: case 0xB9: case 0xBC: r = 'u'; break;
                case 0xB1: r = 'n'; break;
                case 0xA7: r = 'c'; break;
                case 0x81: case 0x80: r = 'A'; break;
                case 0x89: case 0x88: r = 'E'; break;
                case 0x8D: case 0x8C: r = 'I'; break;
                case 0x93: case 0x92: r = 'O'; break;
                case 0x9A: case 0x99: case 0x9C: r = 'U'; break;
                case 0x91: r = 'N'; break;
                default: break;
            }
            ++i;
            if (r) out.push_back(r);
            continue;
        }
        // other multi-byte sequences: skip continuation bytes
        while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) ++i;
    }
    return out;
}
std::string slug(std::string_view s, int max_words) {
    std::string const f = fold_ascii(s);
    std::string out;
    int words = 0;
    bool in_word = false;
    for (char c : f) {
        bool const alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum) {
            if (!in_word) {
                if (words == max_words) break;
                if (!out.empty()) out.push_back('_');
                ++words;
                in_word = true;
            }
            out.push_back(c);
        } else {
            in_word = false;
        }
    }
    return out;
}
std::string sort_key(std::string_view s) {
    std::string k = fold_ascii(s);
    for (char& c : k)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return k;
}
/// Truncate at a UTF-8 boundary.
std::string truncate_utf8(std::string_view s, std::size_t max_bytes) {
    if (s.size() <= max_bytes) return std::string(s);
    std::size_t n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    std::string r(s.substr(0, n));
    while (!r.empty() && r.back() == ' ') r.pop_back();
    return r;
}
/// Appends a final period unless the text already ends with one ("S.L.").
std::string with_dot(std::string s) {
    if (s.empty() || s.back() != '.') s.push_back('.');
    return s;
}
/// Cut at a word boundary with an ellipsis when longer than max_bytes.
std::string short_name(std::string_view s, std::size_t max_bytes) {
    if (s.size() <= max_bytes) return std::string(s);
    std::string t = truncate_utf8(s, max_bytes);
    auto const sp = t.rfind(' ');
    if (sp != std::string::npos && sp > max_bytes / 2) t.resize(sp);
    static constexpr std::string_view drop[] = {" de", " del", " la", " el", " en", " para", " y", " a", " los", " las", " con"};
    for (bool again = true; again;) {
        again = false;
        for (auto d : drop)
            if (t.size() > d.size() && t.compare(t.size() - d.size(), d.size(), d) == 0) { t.resize(t.size() - d.size()); again = true; }
    }
    return t + "…";
}
std::string join(std::vector<std::string> const& v, std::string_view sep, std::string_view last_sep) {
    std::string r;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) r += (i + 1 == v.size()) ? last_sep : sep;
        r += v[i];
    }
    return r;
}
int count_words(std::string_view s) {
    int n = 0;
    bool in = false;
    for (char c : s) {
        bool const sp = c == ' ' || c == '\n' || c == '\t';
        if (!sp && !in) ++n;
        in = !sp;
    }
    return n;
}

// ───────────────────────────── SQLite wrappers ─────────────────────────────

class Db {
public:
    Db() = default;
    Db(Db const&) = delete;
    Db& operator=(Db const&) = delete;
    ~Db() { close_noexcept(); }
    void open(std::string const& file) {
        int const rc = sqlite3_open_v2(file.c_str(), &h_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
        if (rc != SQLITE_OK) {
            std::string msg = h_ ? sqlite3_errmsg(h_) : sqlite3_errstr(rc);
            close_noexcept();
            throw std::runtime_error("cannot create database file '" + file + "': " + msg);
        }
    }
    void exec(std::string const& sql) {
        char* err = nullptr;
        if (sqlite3_exec(h_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : sqlite3_errmsg(h_);
            sqlite3_free(err);
            throw std::runtime_error("SQLite error (" + truncate_utf8(sql, 80) + "): " + msg);
        }
    }
    void close() {
        if (h_ && sqlite3_close(h_) != SQLITE_OK) {
            std::string msg = sqlite3_errmsg(h_);
            sqlite3_close_v2(h_);
            h_ = nullptr;
            throw std::runtime_error("SQLite error closing database: " + msg);
        }
        h_ = nullptr;
    }
    sqlite3* get() const { return h_; }

private:
    void close_noexcept() {
        if (h_) sqlite3_close_v2(h_);
        h_ = nullptr;
    }
    sqlite3* h_ = nullptr;
};

class Stmt {
public:
    Stmt() = default;
    Stmt(sqlite3* db, std::string const& sql) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &h_, nullptr) != SQLITE_OK)
            throw std::runtime_error("SQLite error preparing (" + truncate_utf8(sql, 80) + "): " + sqlite3_errmsg(db));
    }
    Stmt(Stmt const&) = delete;
    Stmt& operator=(Stmt const&) = delete;
    Stmt(Stmt&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    Stmt& operator=(Stmt&& o) noexcept {
        std::swap(h_, o.h_);
        return *this;
    }
    ~Stmt() { sqlite3_finalize(h_); }
    sqlite3_stmt* get() const { return h_; }

private:
    sqlite3_stmt* h_ = nullptr;
};

enum class Ty : char { I, R, T };
struct Col {
    std::string name;
    Ty ty;
    bool not_null;
};
using Value = std::variant<std::monostate, i64, double, std::string>;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

/// One table: schema + prepared INSERT + a named-column row buffer.
/// Every column must be set (possibly to NULL) before insert(); ids are 1..n in insertion order.
class Table {
public:
    Table(std::string name, std::initializer_list<char const*> spec) : name_(std::move(name)) {
        cols_.push_back({"id", Ty::I, true});
        for (char const* s : spec) {
            std::string_view v(s);
            auto const colon = v.find(':');
            Col c{std::string(v.substr(0, colon)), Ty::T, false};
            std::string_view t = v.substr(colon + 1);
            if (!t.empty() && t.back() == '!') {
                c.not_null = true;
                t.remove_suffix(1);
            }
            c.ty = t == "I" ? Ty::I : t == "R" ? Ty::R : Ty::T;
            cols_.push_back(std::move(c));
        }
        for (std::size_t i = 0; i < cols_.size(); ++i) index_.emplace(cols_[i].name, static_cast<int>(i));
        vals_.resize(cols_.size());
        set_.assign(cols_.size(), 0);
    }
    std::string const& name() const { return name_; }
    std::vector<Col> const& cols() const { return cols_; }
    bool has_portfolio_id() const { return cols_.size() > 1 && cols_[1].name == "portfolio_id"; }
    i64 rows() const { return next_id_ - 1; }

    std::string create_sql() const {
        std::string s = "CREATE TABLE " + name_ + " (\n  id INTEGER PRIMARY KEY";
        for (std::size_t i = 1; i < cols_.size(); ++i) {
            s += ",\n  " + cols_[i].name + (cols_[i].ty == Ty::I ? " INTEGER" : cols_[i].ty == Ty::R ? " REAL" : " TEXT");
            if (cols_[i].not_null) s += " NOT NULL";
        }
        return s + "\n)";
    }
    void prepare(sqlite3* db) {
        db_ = db;
        std::string s = "INSERT INTO " + name_ + " VALUES (";
        for (std::size_t i = 0; i < cols_.size(); ++i) s += i ? ",?" : "?";
        s += ")";
        stmt_ = Stmt(db, s);
    }

    template <class T>
    Table& set(std::string_view col, T const& v) {
        if constexpr (std::is_same_v<T, std::nullopt_t>) {
            put(col, Value{});
        } else if constexpr (is_optional<T>::value) {
            if (v) set(col, *v);
            else put(col, Value{});
        } else if constexpr (std::is_same_v<T, bool>) {
            put(col, Value{static_cast<i64>(v ? 1 : 0)});
        } else if constexpr (std::is_integral_v<T>) {
            put(col, Value{static_cast<i64>(v)});
        } else if constexpr (std::is_floating_point_v<T>) {
            put(col, Value{static_cast<double>(v)});
        } else if constexpr (std::is_same_v<T, Date>) {
            put(col, Value{v.iso()});
        } else {
            put(col, Value{std::string(v)});
        }
        return *this;
    }
    Table& money(std::string_view col, OptMoney cents) {
        if (cents) put(col, Value{static_cast<double>(*cents) / 100.0});
        else put(col, Value{});
        return *this;
    }
    i64 insert() {
        sqlite3_stmt* st = stmt_.get();
        i64 const id = next_id_;
        vals_[0] = id;
        set_[0] = 1;
        for (std::size_t i = 0; i < cols_.size(); ++i) {
            if (!set_[i]) throw std::runtime_error("internal error: column " + name_ + "." + cols_[i].name + " not set");
            int const p = static_cast<int>(i) + 1;
            int rc = SQLITE_OK;
            Value const& v = vals_[i];
            if (std::holds_alternative<std::monostate>(v)) rc = sqlite3_bind_null(st, p);
            else if (auto const* iv = std::get_if<i64>(&v)) rc = sqlite3_bind_int64(st, p, *iv);
            else if (auto const* dv = std::get_if<double>(&v)) rc = sqlite3_bind_double(st, p, *dv);
            else {
                auto const& sv = std::get<std::string>(v);
                rc = sqlite3_bind_text(st, p, sv.data(), static_cast<int>(sv.size()), SQLITE_TRANSIENT);
            }
            if (rc != SQLITE_OK) throw std::runtime_error("SQLite bind error on " + name_ + ": " + sqlite3_errmsg(db_));
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            throw std::runtime_error("SQLite error inserting into " + name_ + ": " + sqlite3_errmsg(db_));
        sqlite3_reset(st);
        std::fill(set_.begin(), set_.end(), 0);
        ++next_id_;
        return id;
    }

private:
    void put(std::string_view col, Value v) {
        auto it = index_.find(col);
        if (it == index_.end()) throw std::runtime_error("internal error: unknown column " + name_ + "." + std::string(col));
        auto const k = static_cast<std::size_t>(it->second);
        Col const& c = cols_[k];
        bool ok = std::holds_alternative<std::monostate>(v) ? !c.not_null
                  : c.ty == Ty::I                           ? std::holds_alternative<i64>(v)
                  : c.ty == Ty::R                           ? std::holds_alternative<double>(v)
                                                            : std::holds_alternative<std::string>(v);
        if (!ok) throw std::runtime_error("internal error: bad value type for " + name_ + "." + c.name);
        vals_[k] = std::move(v);
        set_[k] = 1;
    }

    std::string name_;
    std::vector<Col> cols_;
    struct SvHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, int, SvHash, std::equal_to<>> index_;
    std::vector<Value> vals_;
    std::vector<char> set_;
    sqlite3* db_ = nullptr;
    Stmt stmt_;
    i64 next_id_ = 1;
};

// ───────────────────────────── Reference data ─────────────────────────────
// Canonical (dropdown) orders are the array orders below.

enum Phase { PRE, APR, EXEC, DONE, CANC, REJ };

struct Estado {
    std::string_view name;
    Phase phase;
    double weight;
    std::string_view descripcion;
};
constexpr Estado kEstados[] = {
    {"Borrador", PRE, 3.0, "Iniciativa en redacción por el área de negocio, aún no presentada."},
    {"Recibida", PRE, 4.0, "Propuesta recibida por la Oficina del Portfolio, pendiente de análisis."},
    {"En Estudio", PRE, 5.0, "En análisis de viabilidad técnica y económica."},
    {"Revisión Regulación", PRE, 2.5, "En revisión por Regulación (impacto retributivo / CNMC)."},
    {"Pendiente de Aprobación", PRE, 6.0, "Caso de negocio completo, pendiente del Comité de Inversiones."},
    {"Aprobada", APR, 8.0, "Aprobada por el Comité de Inversiones, pendiente de arranque."},
    {"En Planificación", APR, 5.0, "Aprobada; elaborando la planificación detallada."},
    {"En Contratación", APR, 4.0, "Aprobada; en proceso de licitación y contratación."},
    {"En Ejecución", EXEC, 30.0, "En ejecución."},
    {"En Pruebas", EXEC, 4.0, "En pruebas de aceptación previas a la puesta en producción."},
    {"En Pausa", EXEC, 2.0, "Ejecución detenida temporalmente."},
    {"En Cierre", EXEC, 3.0, "Puesta en producción realizada; en cierre administrativo."},
    {"Finalizado", DONE, 12.0, "Iniciativa finalizada."},
    {"Cancelado", CANC, 7.0, "Iniciativa cancelada; solo conserva el importe ya ejecutado."},
    {"Rechazado", REJ, 2.5, "Propuesta rechazada por el Comité de Inversiones."},
};
constexpr int kNumEstados = static_cast<int>(std::size(kEstados));
constexpr int kEstadoEnEjecucion = 8, kEstadoPruebas = 9, kEstadoPausa = 10, kEstadoCierre = 11, kEstadoFinalizado = 12,
              kEstadoCancelado = 13, kEstadoAprobada = 5, kEstadoEnEstudio = 2, kEstadoPendAprob = 4, kEstadoRevReg = 3;

struct Prefix {
    std::string_view code;
    double weight;
    std::string_view ambito;
};
constexpr Prefix kPrefixes[] = {
    {"SPA", 60.0, "España"}, {"DIG", 18.0, "Corporativo"}, {"POR", 9.0, "Portugal"}, {"MEX", 7.0, "México"}, {"UK", 6.0, "Reino Unido"},
};
constexpr int kYearMin = 21;
constexpr double kYearWeights[] = {5, 8, 14, 26, 35, 12};   // yy 21..26

constexpr std::string_view kUnidades[] = {"Distribución", "Redes", "Ingeniería", "Generación", "Renovables",
                                          "Gestión de Energía", "Comercial", "Clientes", "Finanzas", "Personas",
                                          "Compras", "Regulación", "Sistemas", "Ciberseguridad"};
constexpr double kUnidadPeso[] = {16, 9, 4, 6, 9, 4, 9, 10, 6, 5, 3, 3, 10, 5};
constexpr int kUnidadCluster[] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4};
constexpr double kUnidadSizeAdj[] = {0.35, 0.4, 0.1, 0.2, 0.35, 0.0, 0.0, 0.05, -0.3, -0.45, -0.4, -0.3, 0.1, 0.0};
constexpr int kNumUnidades = static_cast<int>(std::size(kUnidades));
constexpr std::string_view kUnidadCodigo[] = {"DIS", "RED", "ING", "GEN", "REN", "GDE", "COM", "CLI", "FIN", "PER", "CMP", "REG", "SIS", "CIB"};

constexpr std::string_view kClusters[] = {"Redes", "Generación y Renovables", "Clientes y Comercial", "Corporativo", "Tecnología"};
constexpr std::string_view kSociedades[] = {"Distribuidora Eléctrica S.A.U.", "Generación y Renovables S.A.U.",
                                            "Comercializadora de Energía S.A.U.", "Servicios Corporativos S.A.",
                                            "Servicios Corporativos S.A."};

struct Tipo {
    std::string_view name;
    double weight;
    int min_months, max_months;
    double size_adj;
    bool recurrente;
};
constexpr Tipo kTipos[] = {
    {"Proyecto", 40, 10, 30, 0.3, false},
    {"Evolutivo", 22, 6, 18, -0.2, false},
    {"Mantenimiento Evolutivo", 10, 12, 36, -0.1, false},
    {"Prueba de Concepto", 8, 3, 8, -1.2, false},
    {"Piloto", 6, 4, 12, -0.7, false},
    {"Licencias", 6, 12, 36, -0.3, true},
    {"Servicio Recurrente", 8, 24, 60, 0.0, true},
    {"Grupo Iniciativas", 0, 0, 0, 0.0, false},
};
constexpr int kTipoPoC = 3, kTipoPiloto = 4, kTipoLicencias = 5, kTipoServicio = 6, kTipoGrupo = 7;
constexpr int kNumTiposBase = 7;

constexpr std::string_view kOrigenes[] = {"Plan Estratégico", "Demanda de Negocio", "Obligación Regulatoria",
                                          "Obsolescencia Tecnológica", "Innovación", "Mandato Corporativo", "Mejora Continua"};
constexpr double kOrigenPeso[] = {22, 30, 10, 12, 10, 6, 10};
constexpr std::string_view kPrioridades[] = {"Crítica", "Alta", "Media", "Baja"};
constexpr double kPrioridadPeso[] = {8, 30, 45, 17};
constexpr std::string_view kAlineacion[] = {"Alta", "Media", "Baja"};
constexpr double kAlineacionPeso[] = {35, 45, 20};
constexpr std::string_view kCapexOpex[] = {"CAPEX", "OPEX", "CAPEX/OPEX"};
constexpr std::string_view kCinis[] = {"I27A1", "I27A2", "I27B1", "I28C0", "I29D3", "I30E1"};
constexpr std::string_view kRiesgos[] = {"Alto", "Medio", "Bajo"};
constexpr std::string_view kSemaforos[] = {"Verde", "Ámbar", "Rojo"};

constexpr std::string_view kL1[] = {"Eficiencia Operativa", "Experiencia de Cliente", "Datos e Inteligencia Artificial",
                                    "Red Inteligente", "Ciberseguridad", "Plataformas Tecnológicas", "Nuevos Negocios",
                                    "Personas y Organización"};
constexpr int kNumL1 = static_cast<int>(std::size(kL1));

struct L2 {
    std::string_view name;
    int l1;
    std::string_view objetivo;   // infinitive clause
    std::vector<std::string_view> objetos;
};
std::vector<L2> const& l2_table() {
    static std::vector<L2> const t = {
        {"Mantenimiento Predictivo", 0, "anticipar averías en activos críticos mediante modelos predictivos y reducir el mantenimiento correctivo",
         {"plataforma de mantenimiento predictivo", "modelos de predicción de averías", "sistema de monitorización de condición de activos", "analítica de vibraciones", "motor de priorización de mantenimiento"}},
        {"Automatización de Procesos", 0, "automatizar tareas manuales repetitivas y reducir los tiempos de tramitación",
         {"robots RPA", "flujos de aprobación digital", "gestor documental automatizado", "automatización de conciliaciones", "orquestador de procesos"}},
        {"Gestión de Activos", 0, "disponer de una visión única y fiable del inventario de activos y de su estado",
         {"inventario digital de activos", "sistema de gestión de activos (EAM)", "registro georreferenciado de instalaciones", "modelo de criticidad de activos"}},
        {"Optimización de Operaciones", 0, "optimizar la planificación de los trabajos de campo y mejorar la productividad de las brigadas",
         {"herramienta de planificación de brigadas", "app de trabajos en campo", "optimizador de rutas de operarios", "cuadro de mando operativo"}},
        {"Canales Digitales", 1, "mejorar la experiencia digital de los clientes e incrementar el uso de los canales de autoservicio",
         {"área privada de clientes", "app móvil de clientes", "portal web comercial", "asistente virtual", "canal de atención por WhatsApp"}},
        {"Personalización", 1, "ofrecer propuestas comerciales personalizadas a cada segmento de clientes",
         {"motor de recomendaciones", "segmentación avanzada de clientes", "ofertas personalizadas", "plataforma de marketing automatizado"}},
        {"Atención al Cliente", 1, "reducir los tiempos de resolución de consultas y reclamaciones",
         {"CRM de atención", "sistema de gestión de reclamaciones", "enrutado inteligente de llamadas", "base de conocimiento para agentes"}},
        {"Facturación y Cobros", 1, "simplificar el proceso de facturación y reducir la tasa de impagos",
         {"sistema de facturación", "pasarela de pagos", "gestión de impagos", "factura digital"}},
        {"Plataforma de Datos", 2, "consolidar los datos corporativos en una plataforma única, escalable y gobernada",
         {"plataforma de datos corporativa", "data lake", "catálogo de datos", "capa de ingesta en tiempo real"}},
        {"Analítica Avanzada", 2, "mejorar la toma de decisiones mediante modelos analíticos avanzados",
         {"modelos de previsión de demanda", "cuadros de mando analíticos", "modelo de detección de fraude", "previsión de producción renovable"}},
        {"IA Generativa", 2, "aplicar la inteligencia artificial generativa para aumentar la productividad de los equipos",
         {"asistente de IA generativa", "copiloto documental", "resumen automático de documentación", "chatbot interno basado en LLM"}},
        {"Gobierno del Dato", 2, "garantizar la calidad, la trazabilidad y la propiedad de los datos críticos",
         {"modelo de gobierno del dato", "herramienta de calidad de datos", "glosario de negocio", "linaje de datos"}},
        {"Telemedida y Contadores", 3, "mejorar la lectura remota de contadores y la calidad de los datos de medida",
         {"sistema de telegestión de contadores", "concentradores de telemedida", "plataforma MDM de medida", "analítica de curvas de carga"}},
        {"Automatización de Red", 3, "reducir los tiempos de reposición del suministro mediante la automatización de la red",
         {"telecontrol de centros de transformación", "sistema ADMS", "reconfiguración automática de red (FLISR)", "protecciones digitales"}},
        {"Gemelo Digital", 3, "disponer de una réplica digital de los activos para simular escenarios y planificar inversiones",
         {"gemelo digital de la red", "modelo 3D de subestaciones", "simulador de escenarios de red", "gemelo digital de parques eólicos"}},
        {"Integración de Renovables", 3, "facilitar la integración de la generación renovable distribuida en la red",
         {"gestión de accesos y conexiones", "plataforma de flexibilidad", "sistema de gestión de recursos distribuidos (DERMS)", "previsión de generación distribuida"}},
        {"Protección OT", 4, "reforzar la seguridad de los sistemas de control industrial frente a ciberataques",
         {"segmentación de redes OT", "monitorización de seguridad OT", "bastionado de sistemas SCADA", "SOC industrial"}},
        {"Gestión de Identidades", 4, "asegurar que cada usuario accede únicamente a los recursos que necesita",
         {"gestión de identidades y accesos (IAM)", "autenticación multifactor", "gestión de accesos privilegiados", "gobierno de identidades"}},
        {"Seguridad Cloud", 4, "proteger las cargas de trabajo desplegadas en la nube",
         {"postura de seguridad cloud", "protección de cargas en la nube", "cifrado de datos en la nube", "gestión de secretos"}},
        {"Cumplimiento Normativo", 4, "cumplir con los requisitos normativos de ciberseguridad aplicables",
         {"adecuación a NIS2", "cumplimiento del ENS", "gestión de riesgos tecnológicos", "plan de continuidad de negocio"}},
        {"Cloud", 5, "migrar cargas de trabajo a la nube para ganar escalabilidad y reducir costes de infraestructura",
         {"infraestructura cloud", "plataforma de contenedores", "landing zone en la nube", "servicios de backup en la nube"}},
        {"Modernización de Aplicaciones", 5, "sustituir aplicaciones obsoletas por soluciones modernas y mantenibles",
         {"aplicaciones legacy", "ERP corporativo", "sistema comercial", "arquitectura de microservicios"}},
        {"Integración", 5, "estandarizar la integración entre sistemas mediante APIs y eventos",
         {"plataforma de integración (API Management)", "bus de eventos", "integraciones con SAP", "pasarela de intercambio con distribuidoras"}},
        {"Puesto de Trabajo", 5, "dotar a los empleados de un puesto de trabajo digital moderno y seguro",
         {"puesto de trabajo digital", "herramientas de colaboración", "gestión de dispositivos móviles", "virtualización de escritorios"}},
        {"Movilidad Eléctrica", 6, "impulsar la movilidad eléctrica con servicios digitales de recarga",
         {"red de puntos de recarga", "app de recarga de vehículos eléctricos", "plataforma de gestión de flotas eléctricas", "sistema de roaming de recarga"}},
        {"Autoconsumo", 6, "facilitar la contratación y el seguimiento de instalaciones de autoconsumo",
         {"plataforma de autoconsumo", "simulador de instalaciones fotovoltaicas", "gestión de comunidades energéticas", "monitorización de autoconsumo"}},
        {"Almacenamiento", 6, "optimizar la operación de los sistemas de almacenamiento energético",
         {"sistema de gestión de baterías", "optimizador de almacenamiento", "plataforma de servicios de balance"}},
        {"Hidrógeno Verde", 6, "monitorizar y optimizar la producción de hidrógeno verde",
         {"monitorización de electrolizadores", "plataforma de trazabilidad de hidrógeno verde", "modelo de costes de hidrógeno"}},
        {"Gestión del Talento", 7, "digitalizar los procesos de gestión de personas",
         {"portal del empleado", "sistema de evaluación del desempeño", "plataforma de selección", "gestión de nóminas"}},
        {"Colaboración", 7, "mejorar la colaboración y la gestión del conocimiento entre equipos",
         {"intranet corporativa", "gestión del conocimiento", "espacios de trabajo colaborativos"}},
        {"Formación Digital", 7, "acelerar la adquisición de competencias digitales de la plantilla",
         {"plataforma de formación online", "academia de competencias digitales", "simuladores de formación en realidad virtual"}},
    };
    return t;
}

// Primary level-1 frameworks per unit (first = most likely).
std::vector<std::vector<int>> const& unit_l1() {
    static std::vector<std::vector<int>> const t = {
        {3, 0, 2}, {3, 0}, {0, 3, 5}, {0, 2}, {0, 6, 2}, {2, 6}, {1, 6, 2}, {1, 2}, {0, 5, 2}, {7, 5}, {0, 5}, {2, 4, 0}, {5, 2, 4}, {4},
    };
    return t;
}

// Cluster affinity of domain-specific objects (bit c = kClusters[c]); objects not listed fit every cluster.
constexpr int R_ = 1, G_ = 2, C_ = 4, K_ = 8, T_ = 16;
struct Afinidad {
    std::string_view objeto;
    int mask;
};
constexpr Afinidad kAfinidad[] = {
    {"plataforma de mantenimiento predictivo", R_ | G_}, {"modelos de predicción de averías", R_ | G_},
    {"sistema de monitorización de condición de activos", R_ | G_}, {"analítica de vibraciones", R_ | G_},
    {"motor de priorización de mantenimiento", R_ | G_}, {"inventario digital de activos", R_ | G_ | T_},
    {"sistema de gestión de activos (EAM)", R_ | G_}, {"registro georreferenciado de instalaciones", R_ | G_},
    {"modelo de criticidad de activos", R_ | G_}, {"herramienta de planificación de brigadas", R_ | G_},
    {"app de trabajos en campo", R_ | G_ | C_}, {"optimizador de rutas de operarios", R_ | G_ | C_},
    {"área privada de clientes", C_ | R_}, {"app móvil de clientes", C_ | R_}, {"portal web comercial", C_},
    {"canal de atención por WhatsApp", C_ | R_}, {"motor de recomendaciones", C_}, {"segmentación avanzada de clientes", C_},
    {"ofertas personalizadas", C_}, {"plataforma de marketing automatizado", C_}, {"CRM de atención", C_ | R_},
    {"sistema de gestión de reclamaciones", C_ | R_}, {"enrutado inteligente de llamadas", C_ | R_},
    {"base de conocimiento para agentes", C_ | R_}, {"sistema de facturación", C_ | K_ | R_}, {"pasarela de pagos", C_ | K_},
    {"gestión de impagos", C_ | K_}, {"factura digital", C_ | K_}, {"modelos de previsión de demanda", R_ | G_ | C_},
    {"modelo de detección de fraude", R_ | C_ | K_}, {"previsión de producción renovable", G_},
    {"sistema de telegestión de contadores", R_}, {"concentradores de telemedida", R_}, {"plataforma MDM de medida", R_ | C_},
    {"analítica de curvas de carga", R_ | C_ | G_}, {"telecontrol de centros de transformación", R_}, {"sistema ADMS", R_},
    {"reconfiguración automática de red (FLISR)", R_}, {"protecciones digitales", R_ | G_}, {"gemelo digital de la red", R_},
    {"modelo 3D de subestaciones", R_}, {"simulador de escenarios de red", R_}, {"gemelo digital de parques eólicos", G_},
    {"gestión de accesos y conexiones", R_ | G_}, {"plataforma de flexibilidad", R_ | G_},
    {"sistema de gestión de recursos distribuidos (DERMS)", R_ | G_}, {"previsión de generación distribuida", R_ | G_},
    {"segmentación de redes OT", R_ | G_ | T_}, {"monitorización de seguridad OT", R_ | G_ | T_},
    {"bastionado de sistemas SCADA", R_ | G_ | T_}, {"SOC industrial", R_ | G_ | T_}, {"red de puntos de recarga", R_ | C_ | G_},
    {"app de recarga de vehículos eléctricos", C_ | G_}, {"plataforma de gestión de flotas eléctricas", C_ | G_},
    {"sistema de roaming de recarga", C_ | G_}, {"plataforma de autoconsumo", C_ | G_ | R_},
    {"simulador de instalaciones fotovoltaicas", C_ | G_ | R_}, {"gestión de comunidades energéticas", C_ | G_ | R_},
    {"monitorización de autoconsumo", C_ | G_ | R_}, {"sistema de gestión de baterías", G_}, {"optimizador de almacenamiento", G_},
    {"plataforma de servicios de balance", G_}, {"monitorización de electrolizadores", G_},
    {"plataforma de trazabilidad de hidrógeno verde", G_}, {"modelo de costes de hidrógeno", G_},
};
bool object_fits(std::string_view obj, int unidad) {
    int const bit = 1 << kUnidadCluster[unidad];
    for (auto const& a : kAfinidad)
        if (a.objeto == obj) return (a.mask & bit) != 0;
    return true;
}
std::vector<int> fitting_objects(int l2, int unidad);

std::vector<std::vector<std::string_view>> const& unit_contexts() {
    static std::vector<std::vector<std::string_view>> const t = {
        {"en subestaciones", "para la red de media tensión", "en centros de transformación", "para la red de baja tensión", "en la zona Centro", "para brigadas de mantenimiento"},
        {"en la red de transporte", "para la operación de red", "en el centro de control", "para la planificación de red", "en líneas de alta tensión"},
        {"en proyectos de ingeniería", "para obras de nueva construcción", "en ingeniería de redes", "para la gestión de proyectos de obra"},
        {"en centrales de ciclo combinado", "en centrales hidráulicas", "para la flota de generación", "en centrales térmicas", "para el despacho de generación"},
        {"en parques eólicos", "en plantas fotovoltaicas", "para parques eólicos marinos", "en instalaciones de almacenamiento", "para activos renovables"},
        {"para la mesa de trading", "en la gestión de energía", "para mercados mayoristas", "para la cobertura de riesgos de mercado"},
        {"para el mercado residencial", "para grandes clientes", "para pymes", "en la comercializadora", "para el canal de ventas"},
        {"para clientes residenciales", "en el centro de atención telefónica", "para clientes vulnerables", "en oficinas comerciales", "para el canal digital"},
        {"para el área de Finanzas", "en contabilidad", "para tesorería", "en el cierre contable", "para control de gestión"},
        {"para todos los empleados", "en Recursos Humanos", "para mandos intermedios", "para el personal de campo"},
        {"en Compras", "para la gestión de proveedores", "en la cadena de suministro", "para almacenes logísticos"},
        {"para reporting regulatorio", "ante la CNMC", "para auditorías regulatorias", "para la liquidación de la retribución"},
        {"en el centro de datos", "para aplicaciones corporativas", "en entornos SAP", "para el área de Sistemas", "a nivel corporativo"},
        {"en entornos OT", "para sistemas críticos", "a nivel corporativo", "en el centro de control", "para proveedores externos"},
    };
    return t;
}

struct Verbo {
    std::string_view name;     // "Implantación de"
    std::string_view articulo; // "la"
};
constexpr Verbo kVerbos[] = {
    {"Implantación de", "la"}, {"Evolución de", "la"},   {"Desarrollo de", "el"},    {"Despliegue de", "el"},
    {"Mejora de", "la"},       {"Renovación de", "la"},  {"Integración de", "la"},   {"Ampliación de", "la"},
    {"Optimización de", "la"}, {"Piloto de", "el"},      {"Adecuación de", "la"},    {"Industrialización de", "la"},
    {"Extensión de", "la"},    {"Modernización de", "la"},
};
constexpr std::string_view kSufijos[] = {" - Fase II", " - Fase III", " - Ola 2", " (Fase 2)", " - Fase IV", " - Ola 3"};

constexpr std::string_view kNombres[] = {
    "Ana", "Carlos", "María", "Javier", "Lucía", "David", "Elena", "Jorge", "Marta", "Pablo", "Laura", "Sergio", "Carmen",
    "Alberto", "Cristina", "Raúl", "Isabel", "Fernando", "Beatriz", "Miguel", "Patricia", "Álvaro", "Nuria", "Íñigo",
    "Sonia", "Rubén", "Pilar", "Andrés", "Rocío", "Gonzalo", "Silvia", "Óscar", "Begoña", "Héctor", "Irene", "Iván",
    "Noelia", "Jesús", "Inmaculada", "Enrique", "Aitor", "Maite", "Joaquín", "Ainhoa", "Ramón", "Yolanda", "Víctor",
    "Eva", "Ignacio", "Montserrat", "Marina", "Diego", "Teresa", "Luis", "Alicia", "Francisco", "Rosa", "Adrián"};
constexpr std::string_view kApellidos[] = {
    "García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín",
    "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez", "Navarro",
    "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina", "Morales", "Suárez",
    "Ortega", "Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez", "Iglesias", "Medina", "Garrido",
    "Cortés", "Castillo", "Santos", "Lozano", "Guerrero", "Cano", "Prieto", "Méndez", "Calvo", "Gallego", "Vidal",
    "León", "Márquez", "Herrera", "Peña", "Cabrera", "Campos", "Vega", "Fuentes", "Carrasco", "Díez", "Caballero",
    "Nieto", "Aguilar", "Pascual", "Herrero", "Lorenzo", "Hidalgo", "Montero", "Ibáñez", "Ferrer", "Durán",
    "Echeverría", "Arrieta", "Urrutia", "Goikoetxea", "Etxeberria", "Zubizarreta", "Olabarria"};

constexpr std::string_view kProveedores[] = {
    "Consultoría Iberia Digital S.L.", "TecnoRed Servicios S.A.",   "Datalia Analytics S.L.",
    "Nube Sur Cloud S.L.",             "Grupo Integra Sistemas S.A.", "Ciberdefensa Norte S.L.",
    "Soluciones Energéticas Avanzadas S.A.", "Ingenia Software S.L.", "Medidas y Control S.A.",
    "Atlántico IT Partners S.L.",      "Vértice Consultores S.L.",  "Sistemas Cantábrico S.A."};

constexpr std::string_view kRiesgosTexto[] = {
    "retrasos en la disponibilidad de los entornos de pruebas",
    "la dependencia de un único proveedor",
    "la falta de disponibilidad de usuarios clave",
    "la complejidad de la integración con sistemas heredados",
    "la calidad insuficiente de los datos de origen",
    "el incremento de costes por cambios de alcance",
    "cambios regulatorios pendientes de publicación",
    "la resistencia al cambio en los equipos operativos",
    "la exposición de nuevos servicios a riesgos de ciberseguridad",
    "plazos de contratación ajustados",
    "la escasez de perfiles especializados en el mercado",
    "la coordinación con otras iniciativas en curso"};
constexpr std::string_view kMitigaciones[] = {
    "un plan de pruebas anticipado con entornos dedicados",
    "la incorporación de un segundo proveedor homologado",
    "la reserva de dedicación de los usuarios clave desde el arranque",
    "una arquitectura de integración basada en APIs",
    "un plan de depuración y calidad de datos previo a la migración",
    "un comité de control de cambios de alcance",
    "un seguimiento quincenal con el área de Regulación",
    "un plan de gestión del cambio y formación",
    "una revisión de arquitectura por el equipo de Ciberseguridad",
    "la tramitación urgente del expediente de contratación"};
constexpr std::string_view kEntregables[] = {"análisis funcional", "diseño técnico", "primer incremento funcional",
                                             "entorno de pruebas", "informe de resultados del piloto", "plan de despliegue",
                                             "modelo de datos", "manual de usuario"};
constexpr std::string_view kAlcanceItems[] = {"el análisis de requisitos con las áreas usuarias",
                                              "el diseño de la solución y de su arquitectura",
                                              "la integración con los sistemas existentes",
                                              "la migración y depuración de datos",
                                              "la formación de los usuarios finales",
                                              "el soporte post-implantación durante tres meses",
                                              "la definición de indicadores de seguimiento",
                                              "la adecuación de los procesos operativos"};

constexpr std::string_view kHechoEstados[] = {"Propuesto", "En Revisión", "Aprobado", "Ampliación Solicitada", "Reducción", "Rechazado", "Cancelado"};
enum HechoEstado { H_PROP, H_REV, H_APROB, H_AMPL, H_RED, H_RECH, H_CANC };
constexpr std::string_view kCalidad[] = {"Alta", "Media", "Baja"};

constexpr std::string_view kAccionEstados[] = {"Pendiente", "En curso", "Completada", "Cancelada"};
constexpr std::string_view kNivel3[] = {"Alta", "Media", "Baja"};
constexpr std::string_view kDocEstados[] = {"Pendiente", "Completado", "Error", "Ignorado"};

struct DocTipo {
    std::string_view name;
    std::string_view formato;
    std::vector<std::pair<std::string_view, int>> secciones;   // title, content kind
};
enum Sec { S_RES, S_SIT, S_PROP, S_ALC, S_ECO, S_PLAN, S_RIE, S_BEN, S_CON, S_ACU, S_EQU, S_REQ, S_AVA };
std::vector<DocTipo> const& doc_tipos() {
    static std::vector<DocTipo> const t = {
        {"Business Case", "PDF", {{"Resumen ejecutivo", S_RES}, {"Situación actual", S_SIT}, {"Propuesta de solución", S_PROP}, {"Análisis económico", S_ECO}, {"Beneficios esperados", S_BEN}, {"Riesgos", S_RIE}, {"Conclusiones", S_CON}}},
        {"Investment Memo", "PDF", {{"Resumen", S_RES}, {"Necesidad de negocio", S_SIT}, {"Alternativas analizadas", S_PROP}, {"Presupuesto solicitado", S_ECO}, {"Calendario", S_PLAN}, {"Recomendación", S_CON}}},
        {"Ficha de Iniciativa", "DOCX", {{"Datos generales", S_RES}, {"Objetivo y alcance", S_ALC}, {"Presupuesto", S_ECO}, {"Responsables", S_EQU}, {"Riesgos principales", S_RIE}}},
        {"Acta de Comité", "PDF", {{"Asistentes", S_EQU}, {"Asuntos tratados", S_RES}, {"Situación económica", S_ECO}, {"Acuerdos", S_ACU}}},
        {"Especificación Funcional", "DOCX", {{"Introducción", S_RES}, {"Alcance funcional", S_ALC}, {"Requisitos funcionales", S_REQ}, {"Integraciones", S_PROP}, {"Planificación", S_PLAN}}},
        {"Oferta de Proveedor", "PDF", {{"Resumen de la oferta", S_RES}, {"Enfoque técnico", S_PROP}, {"Equipo propuesto", S_EQU}, {"Oferta económica", S_ECO}, {"Planificación", S_PLAN}}},
        {"Informe de Seguimiento", "PDF", {{"Resumen del periodo", S_AVA}, {"Hitos alcanzados", S_PLAN}, {"Situación económica", S_ECO}, {"Riesgos y problemas", S_RIE}, {"Próximos pasos", S_CON}}},
        {"Plan de Proyecto", "XLSX", {{"Objetivos", S_RES}, {"Fases del proyecto", S_PLAN}, {"Recursos", S_EQU}, {"Presupuesto por año", S_ECO}, {"Gestión de riesgos", S_RIE}}},
    };
    return t;
}
enum DocT { D_BC, D_IM, D_FICHA, D_ACTA, D_EF, D_OFERTA, D_INFORME, D_PLAN };

constexpr std::string_view kEtiquetas[] = {
    "Seguimiento Especial", "Comité de Dirección", "Plan Estratégico 2025", "Fondos Next Generation", "IA", "Quick Win",
    "Cloud", "Regulatorio", "Sostenibilidad", "Obsolescencia", "Ciberseguridad", "Datos", "Automatización",
    "Experiencia de Cliente", "OT", "Innovación", "Transición Energética", "SAP", "Eficiencia", "PERTE"};
struct Destacada {
    std::string_view etiqueta, color, descripcion;
};
constexpr Destacada kDestacadas[] = {
    {"Seguimiento Especial", "#D32F2F", "Iniciativas con seguimiento reforzado por la Dirección Digital."},
    {"Comité de Dirección", "#7B1FA2", "Iniciativas que se reportan al Comité de Dirección."},
    {"Plan Estratégico 2025", "#1565C0", "Iniciativas tractoras del Plan Estratégico 2025."},
    {"Fondos Next Generation", "#2E7D32", "Iniciativas con financiación de fondos europeos Next Generation."},
    {"IA", "#F9A825", "Iniciativas de inteligencia artificial (incluida IA generativa)."},
    {"Quick Win", "#00838F", "Iniciativas de bajo coste y retorno rápido."},
};

constexpr std::string_view kTiposNota[] = {"Seguimiento", "Comité", "Riesgo", "Decisión", "Informativa"};
constexpr std::string_view kTiposDependencia[] = {"Técnica", "Funcional", "Contractual", "Organizativa", "Datos"};
constexpr std::string_view kEstadosDependencia[] = {"Abierta", "En riesgo", "Resuelta"};
constexpr std::string_view kLtpEstados[] = {"Pendiente", "En curso", "Completada", "Bloqueada"};
constexpr std::string_view kHitoEstados[] = {"Completado", "En curso", "Pendiente", "Retrasado", "Cancelado"};
constexpr std::string_view kEstadosEspeciales[] = {"Congelada por presupuesto", "Revisión por Comité", "Prioridad estratégica",
                                                   "Bloqueada por dependencia", "Pendiente de regulación", "Fast Track"};
constexpr std::string_view kMemoEstados[] = {"Borrador", "Presentado", "Aprobado", "Rechazado", "Sustituido"};
constexpr std::string_view kAreasTecnicas[] = {"Operación de Red", "Mantenimiento", "Protecciones", "Telecontrol",
                                               "Sistemas OT", "Medida", "Planificación de Red", "Seguridad y Salud"};
constexpr std::string_view kTiposImpacto[] = {"Procesos", "Sistemas", "Organización", "Formación"};
constexpr std::string_view kTiposJustificacion[] = {"Cambio de estado", "Desviación presupuestaria", "Retraso en plazos",
                                                    "Cancelación", "Rechazo", "Paralización", "Ampliación de alcance"};
constexpr std::string_view kTiposFicha[] = {"Seguimiento trimestral", "Cierre anual"};
constexpr std::string_view kClasifReg[] = {"Retribuible", "No retribuible"};
constexpr std::string_view kWbeEstados[] = {"Abierta", "Cerrada"};
constexpr std::string_view kBenefEstados[] = {"Estimado", "Comprometido", "Realizado"};

struct TipoBeneficio {
    std::string_view name, unidad_medida;
};
constexpr TipoBeneficio kTiposBeneficio[] = {
    {"Ahorro de costes", "€"},
    {"Incremento de ingresos", "€"},
    {"Reducción de horas de trabajo", "horas"},
    {"Reducción de emisiones", "tCO2e"},
    {"Mejora de la satisfacción del cliente", "puntos NPS"},
    {"Reducción de riesgos", "€"},
    {"Reducción del tiempo de interrupción", "minutos TIEPI"},
};
// benefit kinds per level-1 framework
std::vector<std::vector<int>> const& l1_beneficios() {
    static std::vector<std::vector<int>> const t = {
        {0, 2, 3}, {4, 1, 0}, {0, 1, 2}, {6, 0, 3}, {5, 0}, {0, 2}, {1, 3, 0}, {2, 0},
    };
    return t;
}

constexpr std::string_view kLtpTareas[] = {
    "Elaborar el caso de negocio", "Definir los requisitos funcionales", "Licitación y adjudicación",
    "Diseño de la arquitectura técnica", "Desarrollo de integraciones", "Migración de datos", "Pruebas integradas",
    "Formación a usuarios", "Gestión del cambio", "Despliegue en producción", "Revisión de seguridad",
    "Definición de KPIs de seguimiento"};

// ───────────────────────────── Model ─────────────────────────────

struct People {
    std::vector<std::string> names;
    std::vector<std::vector<int>> by_unit;
    std::vector<int> bi, ti, pmo;
};

struct Ini {
    std::string pid;
    int prefix = 0, yy = 0, seq = 0;
    std::string nombre;
    int unidad = 0, tipo = 0, origen = 0, estado = 0, l1 = 0, l2 = 0, prioridad = 0, alineacion = 0, capex = 0;
    int cini = -1, clasif = 1;
    int ref_neg = 0, ref_bi = -1, resp_ti = 0, proveedor = -1;
    int verb = 0, obj = 0, ctx = 0;
    bool generic_ctx = false;   // framework outside the unit's usual ones: no unit-specific context phrase
    Date alta, inicio, fecha_estado;
    std::optional<Date> fin;
    Date cierre;          // cancellation / rejection date (CANC, REJ)
    bool was_approved = false;
    double perf = 1.0;
    std::array<OptMoney, kNumYears> budget{}, importe{}, aprobado{}, fact{};
    // groups
    bool is_group = false;
    int group = -1;
    std::vector<int> comps;
    // aggregates filled while generating the child tables
    int n_hechos = 0, n_docs = 0, n_docs_ok = 0, n_notas = 0, n_acciones = 0, n_acc_pend = 0, n_etiq = 0, n_dep = 0,
        n_ltp = 0, n_wbes = 0, n_benef = 0;
    std::string etiquetas;
    OptMoney benef_eur;
    std::optional<double> avance;
    std::optional<Date> fecha_avance;
    int semaforo = -1;
    int estado_especial = -1;
    bool memo = false, aatt = false;
    std::optional<Date> fecha_ult_nota;
    std::string ult_nota;
    std::optional<Date> prox_accion, prox_hito, fecha_aprob;
    Date fecha_act;
    std::string descripcion_corta;
    std::string codigo_jira;
    OptMoney van;
    std::optional<double> tir, payback;

    Phase phase() const { return kEstados[estado].phase; }
    int first_year_active() const {
        for (int k = 0; k < kNumYears; ++k)
            if (budget[static_cast<std::size_t>(k)] || importe[static_cast<std::size_t>(k)]) return kFirstYear + k;
        return 0;
    }
};

OptMoney sum_opt(std::span<OptMoney const> v) {
    OptMoney s;
    for (auto const& x : v)
        if (x) s = s.value_or(0) + *x;
    return s;
}
i64 round_to(double cents, i64 step_cents) {
    return static_cast<i64>(std::llround(cents / static_cast<double>(step_cents))) * step_cents;
}
i64 to_cents(double cents) { return static_cast<i64>(std::llround(cents)); }
std::size_t yi(int year) { return static_cast<std::size_t>(year - kFirstYear); }

std::string make_pid(int prefix, int yy, int seq) {
    std::string s(kPrefixes[prefix].code);
    s += '_';
    s += static_cast<char>('0' + yy / 10);
    s += static_cast<char>('0' + yy % 10);
    s += '_';
    std::string n = std::to_string(seq);
    while (n.size() < 3) n = "0" + n;
    return s + n;
}

struct Tables;   // fwd

struct Ctx {
    generator_options opt;
    People people;
    std::vector<Ini> inis;
    std::unordered_set<std::string> names;
    int invoice_no = 0;
    std::string const& person(int idx) const { return people.names[static_cast<std::size_t>(idx)]; }
};


// ───────────────────────────── Pass A: people, ids, base attributes ─────────────────────────────

enum Purpose : std::uint64_t { P_IDS = 0, P_BASE = 1, P_CHILD = 2, P_GROUPS = 3, P_PEOPLE = 4, P_GROUPCHILD = 5 };

People make_people(std::uint64_t seed) {
    Rng r = Rng::stream(seed, P_PEOPLE, 0);
    People p;
    std::unordered_set<std::string> used;
    auto fresh = [&]() -> int {
        for (;;) {
            std::string_view const a1 = r.pick(kApellidos);
            std::string_view a2 = r.pick(kApellidos);
            while (a2 == a1) a2 = r.pick(kApellidos);
            std::string n = cat(r.pick(kNombres), ' ', a1, ' ', a2);
            if (used.insert(n).second) {
                p.names.push_back(std::move(n));
                return static_cast<int>(p.names.size()) - 1;
            }
        }
    };
    p.by_unit.resize(kNumUnidades);
    for (auto& v : p.by_unit)
        for (int k = 0; k < 6; ++k) v.push_back(fresh());
    for (int k = 0; k < 18; ++k) p.bi.push_back(fresh());
    for (int k = 0; k < 22; ++k) p.ti.push_back(fresh());
    for (int k = 0; k < 8; ++k) p.pmo.push_back(fresh());
    return p;
}

void assign_ids(Ctx& c) {
    int const n = c.opt.initiatives;
    Rng r = Rng::stream(c.opt.seed, P_IDS, 0);
    constexpr int np = static_cast<int>(std::size(kPrefixes));
    constexpr int ny = static_cast<int>(std::size(kYearWeights));
    std::array<double, np> pw{};
    for (int i = 0; i < np; ++i) pw[static_cast<std::size_t>(i)] = kPrefixes[i].weight;
    std::vector<int> count(np * ny, 0);
    struct Key {
        int prefix, yy, seq;
    };
    std::vector<Key> keys;
    keys.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        int const p = static_cast<int>(r.weighted(pw));
        int const y = static_cast<int>(r.weighted(kYearWeights));
        int b = p * ny + y;
        while (count[static_cast<std::size_t>(b)] >= 9999) b = (b + 1) % (np * ny);   // 4-digit sequences at most
        int const seq = ++count[static_cast<std::size_t>(b)];
        keys.push_back({b / ny, b % ny + kYearMin, seq});
    }
    std::sort(keys.begin(), keys.end(), [](Key const& a, Key const& b) {
        if (a.prefix != b.prefix) return kPrefixes[a.prefix].code < kPrefixes[b.prefix].code;
        if (a.yy != b.yy) return a.yy < b.yy;
        return a.seq < b.seq;
    });
    c.inis.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < keys.size(); ++i) {
        Ini& x = c.inis[i];
        x.prefix = keys[i].prefix;
        x.yy = keys[i].yy;
        x.seq = keys[i].seq;
        x.pid = make_pid(x.prefix, x.yy, x.seq);
    }
}

double phase_mult(int yy, Phase ph) {
    static constexpr double m[6][6] = {
        // PRE  APR  EXEC DONE CANC REJ
        {0.1, 0.3, 0.8, 4.0, 1.5, 1.5},   // 21
        {0.1, 0.3, 0.8, 4.0, 1.5, 1.5},   // 22
        {0.3, 0.5, 1.0, 2.5, 1.2, 1.2},   // 23
        {0.6, 0.8, 1.2, 1.2, 1.0, 1.0},   // 24
        {1.3, 1.4, 1.0, 0.3, 0.8, 0.8},   // 25
        {4.0, 0.8, 0.0, 0.0, 0.3, 0.3},   // 26
    };
    return m[std::clamp(yy - kYearMin, 0, 5)][ph];
}

std::vector<int> fitting_objects(int l2, int unidad) {
    std::vector<int> v;
    auto const& objs = l2_table()[static_cast<std::size_t>(l2)].objetos;
    for (std::size_t k = 0; k < objs.size(); ++k)
        if (object_fits(objs[k], unidad)) v.push_back(static_cast<int>(k));
    return v;
}

std::string make_name(Ctx& c, Ini& x, Rng& r) {
    auto const& objs = l2_table()[static_cast<std::size_t>(x.l2)].objetos;
    auto const& ctxs = unit_contexts()[static_cast<std::size_t>(x.unidad)];
    std::vector<int> const fit = fitting_objects(x.l2, x.unidad);
    std::string n;
    for (int attempt = 0; attempt < 10; ++attempt) {
        x.verb = static_cast<int>(r.index(std::size(kVerbos)));
        x.obj = fit[r.index(fit.size())];
        x.ctx = static_cast<int>(r.index(ctxs.size()));
        n = cat(kVerbos[x.verb].name, ' ', objs[static_cast<std::size_t>(x.obj)]);
        if (!x.generic_ctx && r.chance(0.85)) n += cat(' ', ctxs[static_cast<std::size_t>(x.ctx)]);
        if (r.chance(0.05)) n += kSufijos[r.index(3)];
        if (c.names.insert(n).second) return n;
    }
    for (auto const s : kSufijos) {
        std::string m = n + std::string(s);
        if (c.names.insert(m).second) return m;
    }
    std::string m = cat(n, " (", x.pid, ')');
    c.names.insert(m);
    return m;
}

void gen_dates(Ini& x, Rng& r) {
    Phase const ph = x.phase();
    int const y0 = 2000 + x.yy;
    x.inicio = Date::ymd(y0, 1, 1) + r.range(0, 175);
    x.alta = x.inicio - r.range(45, 300);
    if (x.alta > kToday) x.alta = kToday - r.range(0, 120);
    Tipo const& t = kTipos[x.tipo];
    int const months = r.range(t.min_months, t.max_months);
    Date fin = add_months(x.inicio, months) + r.range(-10, 10);
    switch (ph) {
        case EXEC:
            if (x.inicio > kToday - 30) x.inicio = kToday - r.range(30, 160);
            if (x.estado == kEstadoCierre) fin = kToday + r.range(-20, 75);
            else if (fin <= kToday + 20) fin = r.chance(0.15) ? kToday - r.range(1, 150) : kToday + r.range(30, 540);
            if (fin < x.inicio + 60) fin = x.inicio + 60 + r.range(0, 60);
            x.fin = fin;
            x.fecha_estado = x.estado == kEstadoEnEjecucion ? min(x.inicio + r.range(0, 45), kToday)
                                                            : max(x.inicio, kToday - r.range(0, 120));
            break;
        case DONE:
            fin = min(fin, kToday - r.range(5, 520));
            if (fin < Date::ymd(2024, 1, 15) && r.chance(0.75)) fin = min(Date::ymd(2024, 1, 15) + r.range(0, 480), kToday - 5);
            if (fin < x.inicio + 75) x.inicio = fin - r.range(90, 420);
            x.fin = fin;
            x.fecha_estado = min(fin + r.range(0, 30), kToday);
            break;
        case APR:
            if (x.inicio < kToday) x.inicio = kToday + r.range(-45, 200);
            if (r.chance(0.95)) x.fin = add_months(x.inicio, months);
            x.fecha_estado = kToday - r.range(0, 200);
            break;
        case PRE:
            if (x.inicio < kToday) x.inicio = kToday + r.range(-30, 300);
            if (r.chance(0.75)) x.fin = add_months(x.inicio, months);
            x.fecha_estado = kToday - r.range(0, 240);
            break;
        case CANC: {
            if (r.chance(0.7)) x.fin = fin;
            int const span = std::max(1, kToday - (x.alta + 30));
            x.cierre = clamp(x.alta + 30 + r.range(0, span - 1), x.alta + 1, kToday);
            x.was_approved = x.cierre > x.inicio ? r.chance(0.75) : r.chance(0.3);
            x.fecha_estado = x.cierre;
            break;
        }
        case REJ: {
            int const span = std::max(21, std::min(300, kToday - x.alta));
            x.cierre = min(x.alta + r.range(20, span), kToday);
            if (r.chance(0.6)) x.fin = fin;
            x.fecha_estado = x.cierre;
            break;
        }
    }
    if ((ph == EXEC || ph == DONE) && x.alta > x.inicio - 10) x.alta = x.inicio - r.range(20, 200);
    x.fecha_estado = clamp(x.fecha_estado, x.alta, kToday);
    if (ph == CANC || ph == REJ) x.cierre = x.fecha_estado;
    x.perf = r.uniform(0.7, 1.08);
}

Date plan_end(Ini const& x) {
    Date e = x.fin ? *x.fin : add_months(x.inicio, 12);
    return e <= x.inicio ? x.inicio + 30 : e;
}

void gen_amounts(Ini& x, Rng& r) {
    Phase const ph = x.phase();
    Date const end_ref = plan_end(x);
    int const first = std::max(kFirstYear, x.inicio.year());
    int last = std::min(kFirstYear + kNumYears - 1, end_ref.year());
    bool const rec = kTipos[x.tipo].recurrente;
    if (!rec && last >= 2027 && r.chance(0.35)) last = std::max(first, 2026);
    if (last < first) return;

    double total = r.lognormal(std::log(260000.0 * 100.0) + kUnidadSizeAdj[x.unidad] + kTipos[x.tipo].size_adj, 1.0);
    if (r.chance(0.015)) total *= r.uniform(4.0, 10.0);
    total = std::clamp(total, 5000.0 * 100.0, 45.0e6 * 100.0);
    std::array<double, kNumYears> w{};
    double ws = 0.0;
    for (int y = first; y <= last; ++y) {
        int const m = std::max(1, months_overlap(x.inicio, end_ref, y));
        w[yi(y)] = m * r.uniform(0.7, 1.3);
        ws += w[yi(y)];
    }
    for (int y = first; y <= last; ++y) {
        double const b = total * w[yi(y)] / ws;
        i64 const step = b >= 5.0e6 ? 100000 : 10000;   // 1.000 € or 100 €
        x.budget[yi(y)] = std::max(step, round_to(b, step));
    }

    int const cy = (ph == CANC) ? x.cierre.year() : 9999;
    for (int y = first; y <= last; ++y) {
        auto const k = yi(y);
        i64 const b = *x.budget[k];
        switch (ph) {
            case PRE:
                x.importe[k] = r.chance(0.8) ? b : round_to(static_cast<double>(b) * r.lognormal(0.0, 0.12), 10000);
                break;
            case REJ:
                x.importe[k] = 0;
                break;
            default: {
                i64 const imp = r.chance(0.55) ? b : to_cents(static_cast<double>(b) * r.lognormal(0.02, 0.18));
                x.importe[k] = imp;
                bool approve = false;
                if (ph == CANC && (y > cy || !x.was_approved)) approve = false;
                else {
                    double const p = y <= 2025 ? (ph == APR ? 0.9 : 0.97) : (y == 2026 ? 0.35 : 0.15);
                    approve = r.chance(p);
                }
                if (approve) {
                    double const u = r.uniform();
                    x.aprobado[k] = u < 0.7   ? imp
                                    : u < 0.9 ? to_cents(static_cast<double>(imp) * r.uniform(0.75, 0.99))
                                              : to_cents(static_cast<double>(imp) * r.uniform(1.01, 1.12));
                }
                if (ph == CANC && y > cy) x.importe[k] = 0;
            }
        }
    }

    // invoiced amounts (only 2024 and 2025; monthly rows are generated later)
    Date stop = ph == DONE ? *x.fin : ph == CANC ? x.cierre : kToday;
    stop = min(stop, kToday);
    for (int y = std::max(first, 2024); y <= std::min(last, 2025); ++y) {
        auto const k = yi(y);
        OptMoney base = x.aprobado[k];
        if (!base && (ph == EXEC || ph == DONE) && r.chance(0.25)) base = x.importe[k];
        if (!base || *base <= 0) continue;
        int const m_plan = std::max(1, months_overlap(x.inicio, end_ref, y));
        int const m_act = months_overlap(x.inicio, stop, y);
        if (m_act == 0) continue;
        double const ratio = std::min(1.0, static_cast<double>(m_act) / m_plan);
        double frac = 0.0;
        switch (ph) {
            case EXEC: frac = ratio * r.uniform(0.6, 1.05); break;
            case DONE: frac = ratio * r.uniform(0.85, 1.0); break;
            case APR: frac = r.chance(0.12) ? r.uniform(0.02, 0.1) : 0.0; break;
            case CANC: frac = y < cy ? ratio * r.uniform(0.6, 1.0) : (y == cy ? ratio * r.uniform(0.05, 0.5) : 0.0); break;
            default: break;
        }
        frac = std::min(frac, 1.0);
        i64 const f = to_cents(static_cast<double>(*base) * frac);
        if (f >= 50000) x.fact[k] = f;
    }
    if (ph == CANC && cy >= first && cy <= last) x.importe[yi(cy)] = x.fact[yi(cy)].value_or(0);
}

void gen_base(Ctx& c, Ini& x, Rng& r) {
    auto const& l2s = l2_table();
    x.unidad = static_cast<int>(r.weighted(kUnidadPeso));
    std::array<double, kNumTiposBase> tw{};
    for (int k = 0; k < kNumTiposBase; ++k) tw[static_cast<std::size_t>(k)] = kTipos[k].weight;
    x.tipo = static_cast<int>(r.weighted(tw));

    std::array<double, kNumL1> w1{};
    w1.fill(0.3);
    static constexpr double prim[] = {10.0, 6.0, 4.0};
    auto const& pl = unit_l1()[static_cast<std::size_t>(x.unidad)];
    for (std::size_t k = 0; k < pl.size(); ++k) w1[static_cast<std::size_t>(pl[k])] = prim[k];
    x.l1 = static_cast<int>(r.weighted(w1));
    std::vector<int> cand;
    for (int pass = 0; pass < 2 && cand.empty(); ++pass) {
        if (pass == 1) x.l1 = pl[0];
        for (std::size_t j = 0; j < l2s.size(); ++j)
            if (l2s[j].l1 == x.l1 && !fitting_objects(static_cast<int>(j), x.unidad).empty()) cand.push_back(static_cast<int>(j));
    }
    x.l2 = cand[r.index(cand.size())];
    x.generic_ctx = std::find(pl.begin(), pl.end(), x.l1) == pl.end();

    std::array<double, kNumEstados> we{};
    for (int k = 0; k < kNumEstados; ++k) we[static_cast<std::size_t>(k)] = kEstados[k].weight * phase_mult(x.yy, kEstados[k].phase);
    x.estado = static_cast<int>(r.weighted(we));
    Phase const ph = x.phase();

    std::array<double, std::size(kOrigenPeso)> wo{};
    std::copy(std::begin(kOrigenPeso), std::end(kOrigenPeso), wo.begin());
    if (x.unidad == 11) wo[2] *= 5;
    if (x.unidad == 13) { wo[2] *= 3; wo[3] *= 2; }
    if (x.unidad == 12) wo[3] *= 2;
    if (x.l1 == 2 || x.l1 == 6) wo[4] *= 2;
    x.origen = static_cast<int>(r.weighted(wo));
    x.prioridad = static_cast<int>(r.weighted(kPrioridadPeso));
    x.alineacion = static_cast<int>(r.weighted(kAlineacionPeso));

    if (x.tipo == kTipoPoC) x.capex = r.chance(0.8) ? 1 : 2;
    else if (x.tipo == kTipoServicio) x.capex = r.chance(0.85) ? 1 : 2;
    else if (x.tipo == kTipoLicencias) x.capex = static_cast<int>(r.weighted(std::array<double, 3>{40, 50, 10}));
    else x.capex = static_cast<int>(r.weighted(std::array<double, 3>{62, 20, 18}));
    x.clasif = (kUnidadCluster[x.unidad] == 0 && x.capex != 1 && r.chance(0.7)) ? 0 : 1;
    x.cini = x.clasif == 0 ? static_cast<int>(r.index(std::size(kCinis))) : -1;

    auto const& neg = c.people.by_unit[static_cast<std::size_t>(x.unidad)];
    x.ref_neg = neg[r.index(neg.size())];
    x.ref_bi = r.chance(ph == PRE ? 0.7 : 0.88) ? c.people.bi[r.index(c.people.bi.size())] : -1;
    x.resp_ti = c.people.ti[r.index(c.people.ti.size())];
    x.proveedor = r.chance(ph == PRE ? 0.5 : 0.9) ? static_cast<int>(r.index(std::size(kProveedores))) : -1;
    x.nombre = make_name(c, x, r);
    x.codigo_jira = cat("PDIG-", 1000 + static_cast<int>(&x - c.inis.data()) * 3 + r.range(0, 2));
    gen_dates(x, r);
    gen_amounts(x, r);
}

// ───────────────────────────── Pass B: groups ─────────────────────────────

void form_groups(Ctx& c) {
    int const n = static_cast<int>(c.inis.size());
    int const g = n >= 20 ? n / 20 : 0;
    if (g == 0) return;
    Rng r = Rng::stream(c.opt.seed, P_GROUPS, 0);
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    for (int i = n - 1; i > 0; --i) std::swap(order[static_cast<std::size_t>(i)], order[r.index(static_cast<std::size_t>(i) + 1)]);
    std::vector<char> taken(static_cast<std::size_t>(n), 0);
    std::vector<int> groups(order.begin(), order.begin() + g);
    std::sort(groups.begin(), groups.end());
    for (int gi : groups) taken[static_cast<std::size_t>(gi)] = 1;
    // candidate pools per unit, in shuffled order
    std::vector<std::vector<int>> pool(kNumUnidades);
    for (std::size_t k = static_cast<std::size_t>(g); k < order.size(); ++k) {
        int const i = order[k];
        if (c.inis[static_cast<std::size_t>(i)].phase() != REJ) pool[static_cast<std::size_t>(c.inis[static_cast<std::size_t>(i)].unidad)].push_back(i);
    }
    std::vector<std::size_t> ptr(kNumUnidades, 0);
    std::size_t any_ptr = static_cast<std::size_t>(g);
    for (int gi : groups) {
        Ini& grp = c.inis[static_cast<std::size_t>(gi)];
        int const want = r.range(2, 6);
        auto& pu = pool[static_cast<std::size_t>(grp.unidad)];
        auto& pp = ptr[static_cast<std::size_t>(grp.unidad)];
        std::vector<int> comps;
        while (static_cast<int>(comps.size()) < want && pp < pu.size()) {
            int const i = pu[pp++];
            if (!taken[static_cast<std::size_t>(i)]) { taken[static_cast<std::size_t>(i)] = 1; comps.push_back(i); }
        }
        while (static_cast<int>(comps.size()) < want && any_ptr < order.size()) {
            int const i = order[any_ptr++];
            if (!taken[static_cast<std::size_t>(i)] && c.inis[static_cast<std::size_t>(i)].phase() != REJ) {
                taken[static_cast<std::size_t>(i)] = 1;
                comps.push_back(i);
            }
        }
        if (comps.size() < 2) {   // not enough components: stays a normal initiative
            for (int i : comps) taken[static_cast<std::size_t>(i)] = 0;
            continue;
        }
        std::sort(comps.begin(), comps.end());
        grp.is_group = true;
        grp.comps = comps;
        for (int i : comps) c.inis[static_cast<std::size_t>(i)].group = gi;
    }
    // recompute the group records from their components
    for (int gi : groups) {
        Ini& grp = c.inis[static_cast<std::size_t>(gi)];
        if (!grp.is_group) continue;
        Ini const& f0 = c.inis[static_cast<std::size_t>(grp.comps.front())];
        c.names.erase(grp.nombre);
        grp.tipo = kTipoGrupo;
        grp.l1 = f0.l1;
        grp.l2 = f0.l2;
        bool any_exec = false, any_apr = false, any_pre = false, any_done = false, all_closed = true;
        Date ini = f0.inicio, alta = f0.alta, fe = f0.fecha_estado;
        std::optional<Date> fin;
        bool fin_null = false;
        int prio = 3;
        for (int i : grp.comps) {
            Ini const& x = c.inis[static_cast<std::size_t>(i)];
            Phase const p = x.phase();
            any_exec |= p == EXEC;
            any_apr |= p == APR;
            any_pre |= p == PRE;
            any_done |= p == DONE;
            all_closed &= (p == DONE || p == CANC || p == REJ);
            ini = min(ini, x.inicio);
            alta = min(alta, x.alta);
            fe = max(fe, x.fecha_estado);
            if (x.fin) fin = fin ? max(*fin, *x.fin) : *x.fin;
            else fin_null = true;
            prio = std::min(prio, x.prioridad);
        }
        grp.estado = any_exec ? kEstadoEnEjecucion
                     : all_closed ? (any_done ? kEstadoFinalizado : kEstadoCancelado)
                     : any_apr ? kEstadoAprobada
                     : any_pre ? kEstadoEnEstudio
                               : kEstadoEnEjecucion;
        grp.inicio = ini;
        grp.alta = alta;
        grp.fecha_estado = fe;
        grp.fin = fin_null && grp.phase() != DONE ? std::nullopt : fin;
        grp.cierre = fe;
        grp.prioridad = prio;
        grp.was_approved = true;
        grp.cini = -1;
        grp.clasif = 1;
        for (int k = 0; k < kNumYears; ++k) {
            auto const kk = static_cast<std::size_t>(k);
            std::vector<OptMoney> b, im, ap, fa;
            for (int i : grp.comps) {
                Ini const& x = c.inis[static_cast<std::size_t>(i)];
                b.push_back(x.budget[kk]);
                im.push_back(x.importe[kk]);
                ap.push_back(x.aprobado[kk]);
                fa.push_back(x.fact[kk]);
            }
            grp.budget[kk] = sum_opt(b);
            grp.importe[kk] = sum_opt(im);
            grp.aprobado[kk] = sum_opt(ap);
            grp.fact[kk] = sum_opt(fa);
        }
        static constexpr std::string_view pat[] = {"Programa ", "Plan de ", "Programa de transformación: ", "Iniciativa tractora de "};
        int const gy = 2000 + grp.yy;
        std::string name;
        for (int attempt = 0; attempt < 8 && name.empty(); ++attempt) {
            std::string candidate;
            int const v = r.range(0, 3);
            if (v == 0) candidate = cat(pat[0], kL1[grp.l1], " en ", kUnidades[grp.unidad], ' ', gy);
            else if (v == 1) candidate = cat(pat[1], l2_table()[static_cast<std::size_t>(grp.l2)].name, " - ", kUnidades[grp.unidad], ' ', gy);
            else if (v == 2) candidate = cat(pat[2], l2_table()[static_cast<std::size_t>(grp.l2)].name, " (", kUnidades[grp.unidad], ')');
            else candidate = cat(pat[3], l2_table()[static_cast<std::size_t>(grp.l2)].name, " en ", kUnidades[grp.unidad]);
            if (c.names.insert(candidate).second) name = candidate;
        }
        if (name.empty()) {
            name = cat("Programa ", kL1[grp.l1], " (", grp.pid, ')');
            c.names.insert(name);
        }
        grp.nombre = name;
    }
}

// ───────────────────────────── Schema ─────────────────────────────

struct Tables {
    Table datos_relevantes{"datos_relevantes", {
        "portfolio_id:T!", "nombre:T!", "unidad:T!", "cluster:T!", "tipo:T!", "origen:T", "estado_de_la_iniciativa:T!",
        "fecha_ultimo_estado:T", "dias_en_estado:I", "digital_framework_level_1:T", "digital_framework_level_2:T",
        "prioridad:T", "alineacion_estrategica:T", "ambito_geografico:T", "referente_negocio:T", "referente_bi:T",
        "responsable_ti:T", "proveedor_principal:T", "fecha_alta:T", "fecha_inicio:T", "fecha_fin:T", "capex_opex:T", "cini:T",
        "budget_2024:R", "budget_2025:R", "budget_2026:R", "budget_2027:R", "budget_2028:R",
        "importe_2024:R", "importe_2025:R", "importe_2026:R", "importe_2027:R", "importe_2028:R",
        "importe_aprobado_2024:R", "importe_aprobado_2025:R", "importe_aprobado_2026:R", "importe_aprobado_2027:R", "importe_aprobado_2028:R",
        "importe_facturacion_2024:R", "importe_facturacion_2025:R", "importe_facturacion_2026:R", "importe_facturacion_2027:R", "importe_facturacion_2028:R",
        "budget_total:R", "importe_total:R", "importe_aprobado_total:R", "importe_facturacion_total:R", "desviacion_importe:R",
        "porcentaje_desviacion:R", "porcentaje_ejecucion:R", "importe_pendiente_facturar_2025:R", "en_presupuesto_del_anio:I!",
        "es_grupo:I!", "portfolio_id_grupo:T", "nombre_grupo:T", "num_componentes:I!", "num_hechos:I!", "num_documentos:I!",
        "num_documentos_procesados:I!", "num_notas:I!", "num_acciones:I!", "num_acciones_pendientes:I!", "num_etiquetas:I!",
        "etiquetas:T", "num_dependencias:I!", "num_ltp:I!", "num_wbes:I!", "num_beneficios:I!", "beneficio_total_estimado:R",
        "porcentaje_avance:R", "fecha_ultimo_avance:T", "semaforo:T", "riesgo:T", "estado_especial:T", "tiene_investment_memo:I!",
        "afecta_aatt:I!", "fecha_ultima_nota:T", "ultima_nota:T", "fecha_proxima_accion:T", "fecha_proximo_hito:T",
        "fecha_actualizacion:T"}};
    Table iniciativas{"iniciativas", {
        "portfolio_id:T!", "nombre:T!", "unidad:T!", "tipo:T!", "estado_de_la_iniciativa:T!", "fecha_alta:T", "fecha_inicio:T",
        "fecha_fin:T", "budget_2024:R", "budget_2025:R", "budget_2026:R", "budget_2027:R", "budget_2028:R", "budget_total:R",
        "es_grupo:I!", "portfolio_id_grupo:T", "fecha_modificacion:T"}};
    Table datos_descriptivos{"datos_descriptivos", {
        "portfolio_id:T!", "nombre:T!", "descripcion_corta:T", "unidad:T!", "cluster:T!", "tipo:T!", "origen:T",
        "digital_framework_level_1:T", "digital_framework_level_2:T", "prioridad:T", "alineacion_estrategica:T",
        "ambito_geografico:T", "referente_negocio:T", "referente_bi:T", "responsable_ti:T", "proveedor_principal:T",
        "codigo_jira:T", "fecha_alta:T"}};
    Table informacion_economica{"informacion_economica", {
        "portfolio_id:T!", "cini:T", "capex_opex:T", "clasificacion_regulatoria:T", "centro_coste:T", "orden_inversion:T",
        "moneda:T!", "porcentaje_capex:I", "importe_total:R", "importe_aprobado_total:R", "van:R", "tir:R", "payback_anios:R",
        "ahorro_anual_estimado:R", "vida_util_anios:I", "fecha_aprobacion_economica:T"}};
    Table hechos{"hechos", {
        "portfolio_id:T!", "id_hecho:I!", "partida_presupuestaria:I!", "fecha:T!", "estado:T!", "importe:R!",
        "calidad_estimacion:T", "racional:T", "registrado_por:T"}};
    Table beneficios{"beneficios", {
        "portfolio_id:T!", "anio:I!", "tipo_beneficio:T!", "descripcion:T", "valor:R!", "unidad_medida:T!", "estado:T!",
        "fecha_registro:T"}};
    Table etiquetas{"etiquetas", {"portfolio_id:T!", "etiqueta:T!", "fecha_asignacion:T!", "asignado_por:T"}};
    Table justificaciones{"justificaciones", {
        "portfolio_id:T!", "tipo_justificacion:T!", "justificacion:T!", "estado_relacionado:T", "fecha:T!", "autor:T"}};
    Table ltp{"ltp", {"portfolio_id:T!", "tarea:T!", "responsable:T", "estado:T!", "fecha_inicio:T", "fecha_fin:T", "comentarios:T"}};
    Table wbes{"wbes", {
        "portfolio_id:T!", "anio:I!", "codigo_wbe:T!", "descripcion_wbe:T", "tipo_wbe:T", "sociedad:T", "importe_asignado:R",
        "estado_wbe:T", "fecha_creacion:T"}};
    Table dependencias{"dependencias", {
        "portfolio_id:T!", "tipo_dependencia:T!", "descripcion:T!", "portfolio_id_relacionado:T", "nombre_relacionado:T",
        "criticidad:T", "estado:T!", "fecha_compromiso:T"}};
    Table notas{"notas", {"portfolio_id:T!", "fecha:T!", "tipo_nota:T!", "registrado_por:T", "nota:T!"}};
    Table avance{"avance", {
        "portfolio_id:T!", "fecha:T!", "porcentaje_avance:R!", "porcentaje_previsto:R", "estado_semaforo:T", "comentario:T",
        "registrado_por:T"}};
    Table acciones{"acciones", {
        "portfolio_id:T!", "accion:T!", "responsable:T", "prioridad:T", "estado:T!", "fecha_creacion:T!", "fecha_limite:T",
        "fecha_cierre:T", "comentarios:T"}};
    Table descripciones{"descripciones", {"portfolio_id:T!", "tipo_descripcion:T!", "descripcion:T!", "fecha_modificacion:T", "autor:T"}};
    Table estado_especial{"estado_especial", {
        "portfolio_id:T!", "estado_especial:T!", "activo:I!", "fecha_inicio:T!", "fecha_fin:T", "comentario:T", "registrado_por:T"}};
    Table investment_memos{"investment_memos", {
        "portfolio_id:T!", "version:I!", "titulo:T!", "fecha_memo:T!", "estado_memo:T!", "autor:T", "budget_2024:R",
        "budget_2025:R", "budget_2026:R", "budget_2027:R", "budget_2028:R", "budget_2029:R", "budget_2030:R", "budget_total:R",
        "van:R", "tir:R", "payback_anios:R", "resumen:T"}};
    Table impacto_aatt{"impacto_aatt", {
        "portfolio_id:T!", "area_tecnica:T!", "tipo_impacto:T!", "nivel_impacto:T!", "descripcion:T", "requiere_formacion:I!",
        "fecha_evaluacion:T", "evaluado_por:T"}};
    Table facturacion{"facturacion", {
        "portfolio_id:T!", "anio:I!", "mes:I!", "fecha_factura:T!", "numero_factura:T!", "proveedor:T", "concepto:T", "importe:R!"}};
    Table fichas{"fichas", {
        "portfolio_id:T!", "periodo:T!", "tipo_ficha:T!", "fecha_ficha:T!", "estado_general:T", "porcentaje_avance:R",
        "importe_ejecutado_acumulado:R", "hitos_periodo:T", "riesgos_periodo:T", "proximos_pasos:T", "elaborado_por:T"}};
    Table documentos{"documentos", {
        "portfolio_id:T!", "nombre_fichero:T!", "tipo_documento:T!", "formato:T!", "version:I!", "tamano_bytes:I!",
        "num_paginas:I", "fecha_subida:T!", "subido_por:T", "estado:T!", "fecha_procesado:T", "resumen_documento:T",
        "num_items:I!", "observaciones:T"}};
    Table documentos_items{"documentos_items", {
        "portfolio_id:T!", "documento_id:I!", "orden:I!", "seccion:T!", "pagina:I", "tipo_contenido:T!", "contenido:T!",
        "num_palabras:I!"}};
    Table grupos_iniciativas{"grupos_iniciativas", {
        "portfolio_id:T!", "portfolio_id_componente:T!", "nombre_grupo:T!", "nombre_componente:T!", "unidad_componente:T",
        "estado_componente:T", "importe_total_componente:R", "orden:I!", "fecha_alta:T"}};
    Table datos_ejecucion{"datos_ejecucion", {
        "portfolio_id:T!", "hito:T!", "orden:I!", "fecha_planificada:T!", "fecha_real:T", "estado_hito:T!", "responsable:T",
        "comentario:T"}};
    Table parametros{"parametros", {"nombre_parametro:T!", "valor:T!", "orden:I!", "descripcion:T"}};
    Table etiquetas_destacadas{"etiquetas_destacadas", {"etiqueta:T!", "color:T!", "descripcion:T", "orden:I!", "fecha_creacion:T"}};

    /// In TABLA_DESCRIPCIONES order.
    std::vector<Table*> all() {
        return {&datos_relevantes, &iniciativas, &datos_descriptivos, &informacion_economica, &hechos, &beneficios,
                &etiquetas, &justificaciones, &ltp, &wbes, &dependencias, &notas, &avance, &acciones, &descripciones,
                &estado_especial, &investment_memos, &impacto_aatt, &facturacion, &fichas, &documentos, &documentos_items,
                &grupos_iniciativas, &datos_ejecucion, &parametros, &etiquetas_destacadas};
    }
};

// ───────────────────────────── Pass C: child tables ─────────────────────────────

struct AvanceRow {
    Date fecha;
    double real, previsto;
    int sem;
};
struct Hito {
    std::string name;
    Date planned;
    std::optional<Date> real;
    int estado;   // index in kHitoEstados
};
struct Work {
    std::array<std::optional<Date>, kNumYears> aprob_date{};
    std::vector<std::pair<int, i64>> invoices;   // (month index, cents)
    std::vector<AvanceRow> avance;
    std::vector<Hito> hitos;
    std::vector<Date> activity;
};

std::string_view objetivo(Ini const& x) { return l2_table()[static_cast<std::size_t>(x.l2)].objetivo; }
std::string contexto(Ini const& x) {
    if (x.generic_ctx) return cat("en el ámbito de ", kUnidades[x.unidad]);
    return std::string(unit_contexts()[static_cast<std::size_t>(x.unidad)][static_cast<std::size_t>(x.ctx)]);
}
std::string objeto(Ini const& x) {
    auto const& o = l2_table()[static_cast<std::size_t>(x.l2)].objetos;
    return std::string(o[static_cast<std::size_t>(x.obj) % o.size()]);
}
/// "la implantación de plataforma de mantenimiento predictivo en subestaciones"
std::string accion_nombre(Ini const& x) {
    return cat(kVerbos[x.verb].articulo, ' ', lower_first(kVerbos[x.verb].name), ' ', objeto(x), ' ', contexto(x));
}
/// "del despliegue de ..." / "de la implantación de ..."
std::string de_accion(Ini const& x) {
    std::string const a = accion_nombre(x);
    return a.rfind("el ", 0) == 0 ? "del " + a.substr(3) : "de " + a;
}
/// "al despliegue de ..." / "a la implantación de ..."
std::string a_accion(Ini const& x) {
    std::string const a = accion_nombre(x);
    return a.rfind("el ", 0) == 0 ? "al " + a.substr(3) : "a " + a;
}
std::pair<int, int> active_years(Ini const& x) {
    int a = 0, b = 0;
    for (int k = 0; k < kNumYears; ++k)
        if (x.budget[static_cast<std::size_t>(k)] || x.importe[static_cast<std::size_t>(k)]) {
            if (!a) a = kFirstYear + k;
            b = kFirstYear + k;
        }
    return {a, b};
}
std::string periodo_txt(Ini const& x) {
    auto [a, b] = active_years(x);
    if (!a) return "";
    return a == b ? cat("el ejercicio ", a) : cat("el periodo ", a, '-', b);
}
Date stop_date(Ini const& x) {
    Date s = x.phase() == DONE && x.fin ? *x.fin : (x.phase() == CANC || x.phase() == REJ) ? x.cierre : kToday;
    return min(s, kToday);
}
int pick_person(Ctx const& c, Ini const& x, Rng& r) {
    double const u = r.uniform();
    if (u < 0.35) return x.ref_neg;
    if (u < 0.6) return x.resp_ti;
    if (u < 0.75 && x.ref_bi >= 0) return x.ref_bi;
    return c.people.pmo[r.index(c.people.pmo.size())];
}
std::string pad(int v, int width) {
    std::string s = std::to_string(v);
    while (static_cast<int>(s.size()) < width) s = "0" + s;
    return s;
}

/// Increasing dates in [lo, hi] (strictly increasing when the window allows it);
/// if last_at_hi the last one is exactly hi.
std::vector<Date> chain_dates(Rng& r, Date lo, Date hi, int k, bool last_at_hi) {
    std::vector<Date> d;
    if (hi < lo) lo = hi;
    if (hi - lo < 2 * k + 1) {   // tiny window: evenly spaced, possibly on the same day
        for (int j = 0; j < k; ++j) d.push_back(lo + (k > 1 ? (hi - lo) * j / (k - 1) : (last_at_hi ? hi - lo : 0)));
        return d;
    }
    Date cur = lo + r.range(0, std::max(0, (hi - lo) / (k + 1)));
    d.push_back(cur);
    for (int j = 1; j < k; ++j) {
        int const rem = k - j;
        int const step = std::max(1, (hi - cur) / (rem + 1));
        cur = cur + r.range(1, step);
        d.push_back(cur);
    }
    if (last_at_hi) d.back() = hi;
    return d;
}

std::string racional_hecho(int estado, int y, Ini const& x, Date d, Rng& r) {
    std::string_view const u = kUnidades[x.unidad];
    switch (estado) {
        case H_PROP: {
            int const v = r.range(0, 2);
            if (v == 0) return cat("Presupuesto solicitado en la planificación anual ", y, '.');
            if (v == 1) return cat("Estimación inicial de la partida ", y, " elaborada por ", u, '.');
            return cat("Importe propuesto según el caso de negocio presentado por ", u, '.');
        }
        case H_REV: {
            static constexpr std::string_view t[] = {"Revisión del importe tras el análisis de alcance con Sistemas.",
                                                     "Ajuste de la estimación tras recibir ofertas de proveedores.",
                                                     "Revisión solicitada por Control de Gestión.",
                                                     "Actualización de la estimación con el detalle de la planificación."};
            return std::string(r.pick(t));
        }
        case H_APROB:
            return r.chance(0.6) ? cat("Aprobado en el Comité de Inversiones de ", mes_anio(d), '.')
                                 : cat("Aprobación de la partida ", y, " por la Dirección de ", u, '.');
        case H_AMPL: {
            static constexpr std::string_view t[] = {"Solicitud de ampliación por incremento del alcance funcional.",
                                                     "Ampliación solicitada por nuevos requisitos regulatorios.",
                                                     "Ampliación por sobrecoste en la integración con los sistemas existentes."};
            return std::string(r.pick(t));
        }
        case H_RED: {
            static constexpr std::string_view t[] = {"Reducción por replanificación de actividades al ejercicio siguiente.",
                                                     "Liberación de importe no necesario tras la adjudicación.",
                                                     "Ajuste a la baja por eficiencias en la contratación."};
            return std::string(r.pick(t));
        }
        case H_RECH:
            return r.chance(0.5) ? std::string("Rechazado por el Comité de Inversiones por falta de priorización.")
                                 : std::string("Rechazado: el caso de negocio no justifica la inversión solicitada.");
        default:
            return "Cancelación de la iniciativa; se mantiene únicamente el importe ya ejecutado.";
    }
}

void gen_hechos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    struct Row {
        Date fecha;
        int year, ord, estado;
        i64 importe;
    };
    std::vector<Row> rows;
    Phase const ph = x.phase();
    int const cy = ph == CANC ? x.cierre.year() : 9999;
    int ord = 0;
    for (int k = 0; k < kNumYears; ++k) {
        auto const kk = static_cast<std::size_t>(k);
        if (!x.budget[kk] && !x.importe[kk]) continue;
        int const y = kFirstYear + k;
        i64 const b = x.budget[kk] ? *x.budget[kk] : *x.importe[kk];
        i64 const imp = x.importe[kk].value_or(b);
        std::vector<std::pair<int, i64>> ch{{H_PROP, b}};
        bool terminal = false;
        if (ph == PRE) {
            if (imp != b) ch.push_back({H_REV, imp});
            else if (r.chance(0.35)) ch.push_back({H_REV, b});
        } else if (ph == REJ) {
            if (r.chance(0.5)) ch.push_back({H_REV, b});
            ch.push_back({H_RECH, 0});
            terminal = true;
        } else {
            OptMoney const a = x.aprobado[kk];
            i64 ref = b;
            if (a) {
                if (r.chance(0.4)) ch.push_back({H_REV, b});
                ch.push_back({H_APROB, *a});
                ref = *a;
            }
            if (ph == CANC && y >= cy) {
                ch.push_back({H_CANC, imp});
                terminal = true;
            } else if (imp != ref) {
                ch.push_back({a ? (imp > ref ? H_AMPL : H_RED) : H_REV, imp});
            }
        }
        // budget cycle of year y: proposals from September of y-1, approvals by April of y
        Date lo = max(x.alta, Date::ymd(y - 1, 9, 1));
        Date hi = terminal ? x.cierre : min(kToday, Date::ymd(y, 4, 30));
        if (!terminal) {
            if (kToday < lo) lo = max(x.alta, kToday - 240);       // future years: proposals made in the last months
            hi = max(hi, min(kToday, lo + 90));
        } else if (hi < lo) {
            lo = max(x.alta, hi - 200);                            // year after the cancellation / rejection
        }
        auto const ds = chain_dates(r, lo, hi, static_cast<int>(ch.size()), terminal);
        for (std::size_t j = 0; j < ch.size(); ++j) rows.push_back({ds[j], y, ord++, ch[j].first, ch[j].second});
    }
    std::stable_sort(rows.begin(), rows.end(), [](Row const& a, Row const& b) {
        if (a.fecha != b.fecha) return a.fecha < b.fecha;
        if (a.year != b.year) return a.year < b.year;
        return a.ord < b.ord;
    });
    int id = 0;
    for (Row const& h : rows) {
        ++id;
        if (h.estado == H_APROB) {
            auto& ad = w.aprob_date[yi(h.year)];
            if (!ad || *ad < h.fecha) ad = h.fecha;
            if (!x.fecha_aprob || h.fecha < *x.fecha_aprob) x.fecha_aprob = h.fecha;
        }
        int cal = 1;
        if (h.estado == H_APROB) cal = r.chance(0.7) ? 0 : 1;
        else if (h.estado == H_PROP && h.year >= 2027) cal = r.chance(0.5) ? 2 : 1;
        else cal = static_cast<int>(r.weighted(std::array<double, 3>{25, 55, 20}));
        t.hechos.set("portfolio_id", x.pid)
            .set("id_hecho", id)
            .set("partida_presupuestaria", h.year)
            .set("fecha", h.fecha)
            .set("estado", kHechoEstados[h.estado])
            .money("importe", h.importe)
            .set("calidad_estimacion", kCalidad[cal])
            .set("racional", racional_hecho(h.estado, h.year, x, h.fecha, r))
            .set("registrado_por", c.person(r.chance(0.6) ? c.people.pmo[r.index(c.people.pmo.size())] : x.ref_neg));
        t.hechos.insert();
        w.activity.push_back(h.fecha);
    }
    x.n_hechos = id;
}

void gen_facturacion(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    Date const stop = stop_date(x);
    for (int y = 2024; y <= 2025; ++y) {
        auto const kk = yi(y);
        if (!x.fact[kk]) continue;
        i64 const total = *x.fact[kk];
        int lo = std::max(x.inicio.month_index(), y * 12);
        int hi = std::min(stop.month_index(), y * 12 + 11);
        if (hi < lo) lo = hi = std::min(y * 12 + 11, kToday.month_index());
        std::vector<int> months;
        for (int m = lo; m <= hi; ++m)
            if (r.chance(0.8)) months.push_back(m);
        if (months.empty()) months.push_back(hi);
        std::vector<double> wt;
        double ws = 0.0;
        for (std::size_t j = 0; j < months.size(); ++j) {
            wt.push_back(r.uniform(0.5, 1.5));
            ws += wt.back();
        }
        i64 acc = 0;
        for (std::size_t j = 0; j < months.size(); ++j) {
            i64 const part = j + 1 == months.size() ? total - acc
                                                    : static_cast<i64>(std::floor(static_cast<double>(total) * wt[j] / ws));
            acc += part;
            if (part <= 0) continue;
            int const nparts = (part > 2000000 && r.chance(0.15)) ? 2 : 1;
            i64 const first = nparts == 2 ? to_cents(static_cast<double>(part) * r.uniform(0.3, 0.7)) : part;
            int const mi = months[j];
            for (int p = 0; p < nparts; ++p) {
                i64 const amt = p == 0 ? first : part - first;
                Date const f = min(from_month_index(mi, r.range(3, 28)), kToday);
                c.invoice_no += r.range(1, 7);
                std::string_view prov = (x.proveedor >= 0 && r.chance(0.85)) ? kProveedores[x.proveedor] : r.pick(kProveedores);
                std::string_view const mes = kMeses[mi % 12];
                std::string concepto;
                if (x.tipo == kTipoLicencias) concepto = cat("Licencias y suscripciones ", y);
                else if (x.tipo == kTipoServicio) concepto = cat("Servicio gestionado - ", mes, ' ', y);
                else {
                    int const v = r.range(0, 3);
                    concepto = v == 0   ? cat("Servicios profesionales ", mes, ' ', y)
                               : v == 1 ? cat("Certificación de trabajos de ", mes, ' ', y)
                               : v == 2 ? cat("Desarrollo evolutivo - hito ", r.range(1, 6))
                                        : cat("Soporte y mantenimiento ", mes, ' ', y);
                }
                t.facturacion.set("portfolio_id", x.pid)
                    .set("anio", y)
                    .set("mes", mi % 12 + 1)
                    .set("fecha_factura", f)
                    .set("numero_factura", cat("FV-", y, '-', pad(c.invoice_no, 6)))
                    .set("proveedor", prov)
                    .set("concepto", concepto)
                    .money("importe", amt);
                t.facturacion.insert();
                w.invoices.push_back({mi, amt});
            }
        }
    }
}

void gen_wbes(Tables& t, Ini& x, Rng& r, Work& w) {
    Phase const ph = x.phase();
    for (int k = 0; k < kNumYears; ++k) {
        auto const kk = static_cast<std::size_t>(k);
        if (!x.aprobado[kk]) continue;
        int const y = kFirstYear + k;
        bool const capex = x.capex == 0 || (x.capex == 2 && r.chance(0.6));
        std::string const code = cat(capex ? "P-" : "O-", kPrefixes[x.prefix].code, '.', pad(x.yy, 2), '.', pad(x.seq, 3), '.', pad(y % 100, 2));
        bool const cerrada = ph == DONE || ph == CANC || (y < 2025 && r.chance(0.8));
        std::optional<Date> fc;
        if (w.aprob_date[kk]) fc = min(*w.aprob_date[kk] + r.range(1, 20), kToday);
        // A year's approved amount is split over 1-3 elements (work packages),
        // as real WBS do; the parts add up to the approved amount exactly.
        static constexpr std::string_view kPaquetes[] = {"Desarrollo", "Infraestructura", "Licencias", "Servicios profesionales", "Despliegue"};
        int const parts = *x.aprobado[kk] >= 5000000 ? r.range(1, 3) : 1;
        i64 remaining = *x.aprobado[kk];
        for (int part = 0; part < parts; ++part) {
            i64 const amount = part + 1 == parts ? remaining : remaining * r.range(30, 60) / 100;
            remaining -= amount;
            t.wbes.set("portfolio_id", x.pid)
                .set("anio", y)
                .set("codigo_wbe", parts == 1 ? code : cat(code, '.', part + 1))
                .set("descripcion_wbe", parts == 1 ? cat(short_name(x.nombre, 60), " - ", y)
                                                   : cat(short_name(x.nombre, 45), " - ", kPaquetes[static_cast<std::size_t>((x.seq + part) % 5)], " - ", y))
                .set("tipo_wbe", capex ? "CAPEX" : "OPEX")
                .set("sociedad", kSociedades[kUnidadCluster[x.unidad]])
                .money("importe_asignado", OptMoney(amount))
                .set("estado_wbe", kWbeEstados[cerrada ? 1 : 0])
                .set("fecha_creacion", fc);
            t.wbes.insert();
            ++x.n_wbes;
        }
    }
}

void gen_avance(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    Phase const ph = x.phase();
    if (!(ph == APR || ph == EXEC || ph == DONE || ph == CANC)) return;
    if (x.inicio > kToday) return;
    Date const stop = stop_date(x);
    if (stop < x.inicio) return;
    double const dur = std::max(30, plan_end(x) - x.inicio);
    std::vector<Date> dates;
    for (Date q = quarter_end_of(max(x.inicio, Date::ymd(2023, 1, 1))); q <= stop; q = month_end(q.month_index() + 3)) dates.push_back(q);
    if (ph == DONE && x.fin && (dates.empty() || dates.back() < *x.fin)) dates.push_back(*x.fin);
    if (dates.empty()) return;
    double prev = 0.0;
    for (std::size_t j = 0; j < dates.size(); ++j) {
        Date const d = dates[j];
        bool const last = j + 1 == dates.size();
        double const expected = std::clamp((d - x.inicio) / dur, 0.0, 1.0) * 100.0;
        double real;
        if (ph == APR) {
            real = std::min(8.0, expected * 0.15 + r.uniform(0.0, 2.0));
        } else {
            Date const dd = (x.estado == kEstadoPausa && d > x.fecha_estado) ? x.fecha_estado : d;
            double const e2 = std::clamp((dd - x.inicio) / dur, 0.0, 1.0) * 100.0;
            real = e2 * x.perf + r.uniform(-3.0, 3.0);
        }
        real = std::clamp(real, prev, 99.0);
        if (last && ph == DONE) real = 100.0;
        if (last && x.estado == kEstadoCierre) real = std::max(real, r.uniform(95.0, 99.0));
        if (last && x.estado == kEstadoPruebas) real = std::max(real, r.uniform(75.0, 92.0));
        real = round1(real);
        prev = real;
        double const diff = expected - real;
        int const sem = (ph == DONE && last) ? 0 : diff < 8.0 ? 0 : diff < 20.0 ? 1 : 2;
        std::optional<std::string> com;
        if (r.chance(0.7)) {
            if (sem == 0) com = r.chance(0.5) ? std::string("Avance conforme a la planificación.")
                                              : std::string("Se completan las tareas previstas en el periodo.");
            else if (sem == 1) com = cat("Ligero retraso en el ", r.pick(kEntregables), "; se prevé recuperarlo en el siguiente trimestre.");
            else com = cat("Retraso significativo por ", r.pick(kRiesgosTexto), '.');
            if (ph == DONE && last) com = std::string("Iniciativa finalizada y entregada a operación.");
        }
        t.avance.set("portfolio_id", x.pid)
            .set("fecha", d)
            .set("porcentaje_avance", real)
            .set("porcentaje_previsto", round1(expected))
            .set("estado_semaforo", kSemaforos[sem])
            .set("comentario", com)
            .set("registrado_por", c.person(r.chance(0.6) ? x.resp_ti : c.people.pmo[r.index(c.people.pmo.size())]));
        t.avance.insert();
        w.avance.push_back({d, real, round1(expected), sem});
        w.activity.push_back(d);
    }
    x.avance = w.avance.back().real;
    x.fecha_avance = w.avance.back().fecha;
    x.semaforo = w.avance.back().sem;
}

std::vector<std::string_view> const& hitos_de_tipo(int tipo) {
    static std::vector<std::vector<std::string_view>> const t = {
        {"Kick-off del proyecto", "Análisis funcional cerrado", "Diseño técnico aprobado", "Desarrollo completado", "Pruebas de aceptación (UAT)", "Puesta en producción", "Cierre del proyecto"},
        {"Toma de requisitos", "Desarrollo completado", "Pruebas de aceptación (UAT)", "Puesta en producción"},
        {"Plan de versiones aprobado", "Release 1 en producción", "Release 2 en producción", "Release 3 en producción"},
        {"Kick-off", "Preparación del entorno", "Ejecución de la prueba de concepto", "Evaluación de resultados", "Decisión de escalado"},
        {"Kick-off del piloto", "Despliegue del piloto", "Evaluación de resultados", "Decisión de escalado"},
        {"Adjudicación del contrato", "Provisión de licencias", "Despliegue a usuarios"},
        {"Adjudicación del contrato", "Transición del servicio", "Inicio del servicio", "Revisión anual del servicio"},
        {"Lanzamiento del programa"},
    };
    return t[static_cast<std::size_t>(tipo)];
}

void gen_hitos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    Phase const ph = x.phase();
    if (!(ph == APR || ph == EXEC || ph == DONE || ph == CANC)) return;
    if (ph == CANC && !x.was_approved) return;
    auto const& names = hitos_de_tipo(x.tipo);
    int const n = static_cast<int>(names.size());
    int const dur = std::max(30, plan_end(x) - x.inicio);
    std::vector<Date> planned;
    for (int j = 0; j < n; ++j) planned.push_back(x.inicio + 7 + (n > 1 ? (dur - 7) * j / (n - 1) : 0));
    int cnt = 0;
    switch (ph) {
        case DONE: cnt = n; break;
        case EXEC: {
            double const p = x.avance.value_or(0.0);
            cnt = std::clamp(static_cast<int>(std::floor(p / 100.0 * n + 0.35)), 1, n - 1);
            if (x.estado == kEstadoPruebas) cnt = std::max(cnt, n - 2);
            if (x.estado == kEstadoCierre) cnt = n - 1;
            cnt = std::max(cnt, 1);
            break;
        }
        case APR: cnt = planned[0] <= kToday ? 1 : 0; break;
        case CANC:
            while (cnt < n && planned[static_cast<std::size_t>(cnt)] <= x.cierre && r.chance(0.8)) ++cnt;
            break;
        default: break;
    }
    Date const cap = ph == DONE && x.fin ? *x.fin : ph == CANC ? x.cierre : kToday;
    Date prev = x.inicio;
    for (int j = 0; j < n; ++j) {
        Hito h{std::string(names[static_cast<std::size_t>(j)]), planned[static_cast<std::size_t>(j)], std::nullopt, 2};
        std::optional<std::string> com;
        if (j < cnt) {
            Date real = max(h.planned + r.range(-10, 35), prev + 1);
            real = min(real, cap);
            prev = real;
            h.real = real;
            h.estado = 0;
            if (real - h.planned > 20) com = std::string("Completado con retraso respecto a la planificación inicial.");
        } else if (ph == CANC) {
            h.estado = 4;
            com = std::string("Hito anulado por la cancelación de la iniciativa.");
        } else if (h.planned < kToday) {
            h.estado = 3;
            com = cat("Replanificado por ", r.pick(kRiesgosTexto), '.');
        } else {
            h.estado = (j == cnt && h.planned - kToday <= 90) ? 1 : 2;
        }
        double const u = r.uniform();
        int const resp = u < 0.5 ? x.resp_ti : u < 0.8 ? x.ref_neg : c.people.pmo[r.index(c.people.pmo.size())];
        t.datos_ejecucion.set("portfolio_id", x.pid)
            .set("hito", h.name)
            .set("orden", j + 1)
            .set("fecha_planificada", h.planned)
            .set("fecha_real", h.real)
            .set("estado_hito", kHitoEstados[h.estado])
            .set("responsable", c.person(resp))
            .set("comentario", com);
        t.datos_ejecucion.insert();
        if (h.estado != 0 && h.estado != 4 && (!x.prox_hito || h.planned < *x.prox_hito)) x.prox_hito = h.planned;
        w.hitos.push_back(std::move(h));
    }
}

void gen_fichas(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    if (w.avance.empty()) return;
    Date const stop = stop_date(x);
    for (int q = 0; q < 6; ++q) {
        int const y = 2024 + q / 4, qi = q % 4;
        Date const qs = Date::ymd(y, qi * 3 + 1, 1);
        Date const qe = month_end(y * 12 + qi * 3 + 2);
        if (qe < x.inicio || stop < qs) continue;
        AvanceRow const* a = nullptr;
        for (auto const& row : w.avance)
            if (row.fecha <= qe) a = &row;
        i64 acc = 0;
        for (auto const& [mi, cents] : w.invoices)
            if (mi <= qe.month_index()) acc += cents;
        std::vector<std::string> done;
        for (auto const& h : w.hitos)
            if (h.real && qs <= *h.real && *h.real <= qe) done.push_back(h.name);
        std::string const hitos = done.empty() ? std::string("Sin hitos relevantes en el periodo.")
                                               : cat("Hitos completados: ", join(done, "; ", "; "), '.');
        std::optional<std::string> riesgos;
        if (a && a->sem > 0) riesgos = cat("Riesgo principal: ", r.pick(kRiesgosTexto), '.');
        std::string prox;
        for (auto const& h : w.hitos)
            if (!h.real && h.estado != 4 && qe < h.planned) {
                prox = cat("Próximo hito: ", h.name, " (previsto para ", mes_anio(h.planned), ").");
                break;
            }
        if (prox.empty())
            prox = x.phase() == DONE ? std::string("Cierre administrativo y traspaso a mantenimiento.")
                                     : std::string("Continuar con la ejecución según la planificación.");
        t.fichas.set("portfolio_id", x.pid)
            .set("periodo", cat(y, "-T", qi + 1))
            .set("tipo_ficha", kTiposFicha[qi == 3 ? 1 : 0])
            .set("fecha_ficha", min(qe + r.range(5, 20), kToday))
            .set("estado_general", a ? std::optional<std::string>(std::string(kSemaforos[a->sem])) : std::nullopt)
            .set("porcentaje_avance", a ? std::optional<double>(a->real) : std::nullopt)
            .money("importe_ejecutado_acumulado", acc)
            .set("hitos_periodo", hitos)
            .set("riesgos_periodo", riesgos)
            .set("proximos_pasos", prox)
            .set("elaborado_por", c.person(c.people.pmo[r.index(c.people.pmo.size())]));
        t.fichas.insert();
    }
}

/// k distinct indices out of n (partial Fisher-Yates), in draw order.
std::vector<int> distinct(Rng& r, int n, int k) {
    std::vector<int> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
    k = std::min(k, n);
    for (int i = 0; i < k; ++i) std::swap(v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(i) + r.index(static_cast<std::size_t>(n - i))]);
    v.resize(static_cast<std::size_t>(k));
    return v;
}
int count_from(Rng& r, std::span<double const> w) { return static_cast<int>(r.weighted(w)); }
Date random_between(Rng& r, Date lo, Date hi) { return hi < lo ? lo : lo + r.range(0, hi - lo); }

void gen_ltp(Ctx& c, Tables& t, Ini& x, Rng& r) {
    Phase const ph = x.phase();
    if (!(ph == PRE || ph == APR || ph == EXEC)) return;
    int const n = count_from(r, std::array<double, 5>{35, 20, 20, 15, 10});
    for (int idx : distinct(r, static_cast<int>(std::size(kLtpTareas)), n)) {
        Date const ini = kToday - r.range(-30, 120);
        Date const fin = ini + r.range(14, 150);
        int est;
        if (fin < kToday) est = static_cast<int>(std::array<int, 3>{2, 3, 1}[r.weighted(std::array<double, 3>{70, 10, 20})]);
        else if (kToday < ini) est = 0;
        else est = static_cast<int>(std::array<int, 3>{1, 3, 0}[r.weighted(std::array<double, 3>{75, 10, 15})]);
        std::optional<std::string> com;
        if (est == 3) com = cat("Bloqueada por ", r.pick(kRiesgosTexto), '.');
        else if (r.chance(0.5)) {
            int const v = r.range(0, 2);
            com = v == 0   ? with_dot(cat("Coordinado con el equipo de ", x.proveedor >= 0 ? kProveedores[x.proveedor] : std::string_view("Sistemas")))
                  : v == 1 ? cat("Pendiente de validación por ", kUnidades[x.unidad], '.')
                           : std::string("Se revisará en la próxima reunión de seguimiento.");
        }
        t.ltp.set("portfolio_id", x.pid)
            .set("tarea", kLtpTareas[idx])
            .set("responsable", c.person(pick_person(c, x, r)))
            .set("estado", kLtpEstados[est])
            .set("fecha_inicio", ini)
            .set("fecha_fin", fin)
            .set("comentarios", com);
        t.ltp.insert();
        ++x.n_ltp;
    }
}

void gen_beneficios(Tables& t, Ini& x, Rng& r) {
    Phase const ph = x.phase();
    if (ph == REJ || ph == CANC) return;
    if (!r.chance(ph == PRE ? 0.6 : 0.85)) return;
    int const n = r.range(1, 4);
    auto const& kinds = l1_beneficios()[static_cast<std::size_t>(x.l1)];
    int const ys = std::clamp(x.fin ? x.fin->year() : x.inicio.year() + 1, 2024, 2028);
    OptMoney const tot = sum_opt(x.importe);
    for (int j = 0; j < n; ++j) {
        int const tb = kinds[r.index(kinds.size())];
        int const anio = r.range(ys, 2028);
        double valor = 0.0;
        std::string desc;
        switch (tb) {
            case 0: case 1: case 5: {
                double const base = tot && *tot > 0 ? static_cast<double>(*tot) * r.uniform(0.08, 0.5) : r.lognormal(std::log(5.0e6), 0.8);
                valor = static_cast<double>(round_to(base, 10000)) / 100.0;
                if (valor <= 0) valor = 100.0;
                desc = tb == 0 ? cat("Ahorro anual de costes operativos derivado ", de_accion(x), '.')
                       : tb == 1 ? cat("Ingresos adicionales asociados ", a_accion(x), '.')
                                 : cat("Reducción de la exposición a riesgos operativos y sanciones gracias ", a_accion(x), '.');
                break;
            }
            case 2: valor = r.range(300, 25000); desc = cat("Horas de trabajo manual evitadas al año ", contexto(x), '.'); break;
            case 3: valor = r.range(5, 4000); desc = "Toneladas de CO2 equivalente evitadas al año."; break;
            case 4: valor = r.range(1, 8); desc = "Mejora esperada del NPS de los clientes afectados."; break;
            default: valor = round1(r.uniform(0.2, 6.0)); desc = "Reducción del TIEPI en las zonas de despliegue."; break;
        }
        int est = r.chance(0.4) ? 1 : 0;
        if (anio <= 2025 && (ph == DONE || ph == EXEC) && r.chance(0.5)) est = 2;
        t.beneficios.set("portfolio_id", x.pid)
            .set("anio", anio)
            .set("tipo_beneficio", kTiposBeneficio[tb].name)
            .set("descripcion", desc)
            .set("valor", valor)
            .set("unidad_medida", kTiposBeneficio[tb].unidad_medida)
            .set("estado", kBenefEstados[est])
            .set("fecha_registro", random_between(r, x.alta, min(x.alta + 400, kToday)));
        t.beneficios.insert();
        ++x.n_benef;
        if (kTiposBeneficio[tb].unidad_medida == "€") x.benef_eur = x.benef_eur.value_or(0) + to_cents(valor * 100.0);
    }
}

void gen_etiquetas(Ctx& c, Tables& t, Ini& x, Rng& r) {
    int const n = count_from(r, std::array<double, 5>{25, 30, 25, 13, 7});
    if (n == 0) return;
    std::array<double, std::size(kEtiquetas)> w{};
    w.fill(1.0);
    switch (x.l1) {
        case 0: w[12] *= 4; w[18] *= 4; break;
        case 1: w[13] *= 6; break;
        case 2: w[4] *= 6; w[11] *= 6; break;
        case 3: w[14] *= 4; w[16] *= 3; break;
        case 4: w[10] *= 8; w[14] *= 2; break;
        case 5: w[6] *= 6; w[17] *= 3; w[9] *= 3; break;
        case 6: w[8] *= 4; w[16] *= 5; w[3] *= 2; w[19] *= 2; break;
        default: break;
    }
    if (x.l2 == 10) w[4] *= 3;
    if (x.origen == 2) w[7] *= 6;
    if (x.origen == 3) w[9] *= 4;
    if (x.prioridad == 0) { w[0] *= 4; w[1] *= 3; }
    if (x.tipo == kTipoPoC || x.tipo == kTipoPiloto) { w[15] *= 4; w[5] *= 2; }
    if (x.is_group) { w[1] *= 3; w[2] *= 3; }
    std::vector<int> picked;
    for (int k = 0; k < n; ++k) {
        auto const i = r.weighted(w);
        picked.push_back(static_cast<int>(i));
        w[i] = 0.0;
    }
    std::sort(picked.begin(), picked.end());
    std::vector<std::string> names;
    for (int i : picked) {
        t.etiquetas.set("portfolio_id", x.pid)
            .set("etiqueta", kEtiquetas[i])
            .set("fecha_asignacion", random_between(r, x.alta, min(x.alta + 300, kToday)))
            .set("asignado_por", c.person(pick_person(c, x, r)));
        t.etiquetas.insert();
        names.emplace_back(kEtiquetas[i]);
    }
    x.n_etiq = static_cast<int>(names.size());
    x.etiquetas = join(names, ", ", ", ");
}

void gen_dependencias(Ctx& c, Tables& t, Ini& x, std::size_t self, Rng& r) {
    if (!r.chance(0.3)) return;
    int const n = r.range(1, 3);
    std::size_t const total = c.inis.size();
    for (int k = 0; k < n; ++k) {
        bool const internal = total > 1 && r.chance(0.6);
        std::string desc;
        std::optional<std::string> rel_pid, rel_nom;
        int tipo;
        if (internal) {
            std::size_t j = self;
            for (int a = 0; a < 6; ++a) {
                std::size_t const cand = r.index(total);
                if (cand == self) continue;
                j = cand;
                if (kUnidadCluster[c.inis[cand].unidad] == kUnidadCluster[x.unidad]) break;
            }
            if (j == self) j = (self + 1) % total;
            Ini const& o = c.inis[j];
            rel_pid = o.pid;
            rel_nom = o.nombre;
            tipo = std::array<int, 4>{0, 1, 3, 4}[r.index(4)];
            int const v = r.range(0, 4);
            desc = v == 0   ? cat("Necesita los datos que proporcionará la iniciativa ", o.pid, '.')
                   : v == 1 ? cat("Comparte la plataforma tecnológica desplegada por ", o.pid, '.')
                   : v == 2 ? cat("Depende de la finalización de la integración prevista en ", o.pid, '.')
                   : v == 3 ? cat("Requiere que ", o.pid, " esté en producción antes del despliegue.")
                            : cat("Reutiliza los componentes desarrollados en ", o.pid, '.');
        } else {
            tipo = std::array<int, 3>{0, 2, 3}[r.index(3)];
            int const v = r.range(0, 5);
            desc = v == 0   ? std::string("Disponibilidad del entorno de pruebas de SAP S/4HANA.")
                   : v == 1 ? with_dot(cat("Renovación del contrato marco con ", r.pick(kProveedores)))
                   : v == 2 ? std::string("Publicación de la circular de la CNMC sobre metodología retributiva.")
                   : v == 3 ? cat("Aprobación del presupuesto ", r.range(2025, 2026), " por el Consejo de Administración.")
                   : v == 4 ? std::string("Disponibilidad del equipo de Ciberseguridad para la revisión de arquitectura.")
                            : cat("Despliegue previo de la red de comunicaciones ", contexto(x), '.');
        }
        int const est = x.phase() == DONE ? 2 : static_cast<int>(r.weighted(std::array<double, 3>{55, 15, 30}));
        std::optional<Date> fc;
        if (r.chance(0.8)) fc = kToday + r.range(-120, 240);
        t.dependencias.set("portfolio_id", x.pid)
            .set("tipo_dependencia", kTiposDependencia[tipo])
            .set("descripcion", desc)
            .set("portfolio_id_relacionado", rel_pid)
            .set("nombre_relacionado", rel_nom)
            .set("criticidad", kNivel3[r.weighted(std::array<double, 3>{25, 50, 25})])
            .set("estado", kEstadosDependencia[est])
            .set("fecha_compromiso", fc);
        t.dependencias.insert();
        ++x.n_dep;
    }
}

std::string texto_nota(Ctx const& c, Ini const& x, int tipo, Date d, Rng& r) {
    auto const persona = [&]() -> std::string const& { return c.person(pick_person(c, x, r)); };
    if (x.is_group && r.chance(0.5))
        return cat("Revisión conjunta de las ", static_cast<int>(x.comps.size()),
                   " iniciativas del programa; se acuerda consolidar el reporting mensual en un único cuadro de mando.");
    switch (tipo) {
        case 0: {
            int const v = r.range(0, 3);
            if (v == 0) return cat("Reunión de seguimiento con ", persona(), ": el avance se mantiene según lo previsto y no se identifican bloqueos.");
            if (v == 1) return cat("Se revisa el plan de trabajo con ", x.proveedor >= 0 ? kProveedores[x.proveedor] : std::string_view("el equipo de Sistemas"),
                                   "; se acuerda reforzar el equipo durante ", kMeses[(d.month() % 12)], '.');
            if (v == 2) return cat("Actualizada la planificación: la puesta en producción se prevé para ", mes_anio(max(d, x.inicio) + r.range(60, 240)), '.');
            std::string_view const ent = r.pick(kEntregables);
            return cat("El proveedor confirma la entrega del ", ent, " para el ", fecha_larga(d + r.range(10, 60)), '.');
        }
        case 1: {
            int const v = r.range(0, 2);
            if (v == 0) return cat("El Comité de Inversiones solicita detallar el caso de negocio antes de aprobar el importe de ", std::max(2024, d.year() + (d.month() >= 9 ? 1 : 0)), '.');
            if (v == 1) return cat("Presentada la iniciativa en el comité mensual de ", kUnidades[x.unidad], "; se valida el enfoque propuesto.");
            return "El comité aprueba continuar con la siguiente fase, condicionada a la revisión de costes.";
        }
        case 2: {
            std::string_view const rie = r.pick(kRiesgosTexto);
            if (r.chance(0.5)) return cat("Riesgo identificado: ", rie, ". Se propone un plan de mitigación con ", persona(), " como responsable.");
            int const sem = r.range(2, 8);
            std::string_view const ent = r.pick(kEntregables);
            return cat("Se detecta un retraso de ", sem, " semanas en el ", ent, " debido a ", rie, '.');
        }
        case 3: {
            if (r.chance(0.5)) return cat("Se decide priorizar el despliegue ", contexto(x), " frente al resto de ámbitos.");
            OptMoney const imp = x.importe[yi(std::clamp(d.year(), 2024, 2028))];
            if (imp && *imp > 0) return cat("Se acuerda ajustar el importe de ", std::clamp(d.year(), 2024, 2028), " a ", eur(*imp), " tras la revisión del alcance.");
            return "Se acuerda mantener el alcance actual y revisar la estimación en el próximo comité.";
        }
        default: {
            int const v = r.range(0, 2);
            if (v == 0) return "Se adjunta la documentación actualizada en el repositorio de la iniciativa.";
            if (v == 1) return cat("Cambio de interlocutor en negocio: ", c.person(x.ref_neg), " asume el rol de referente.");
            return cat("Sesión informativa con los usuarios clave de ", kUnidades[x.unidad], " para presentar el alcance.");
        }
    }
}

void gen_notas(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    Phase const ph = x.phase();
    int n = 0;
    if (x.is_group) n = r.range(1, 3);
    else switch (ph) {
            case PRE: n = r.range(0, 2); break;
            case APR: n = r.range(0, 3); break;
            case EXEC: n = r.range(1, 6); break;
            case DONE: n = r.range(0, 4); break;
            default: n = r.range(1, 2); break;
        }
    if (n == 0) return;
    Date const stop = max(stop_date(x), x.alta);
    std::vector<Date> ds;
    for (int k = 0; k < n; ++k) ds.push_back(random_between(r, x.alta, stop));
    std::sort(ds.begin(), ds.end());
    for (int k = 0; k < n; ++k) {
        Date const d = ds[static_cast<std::size_t>(k)];
        int tipo = static_cast<int>(r.weighted(std::array<double, 5>{40, 15, 15, 15, 15}));
        std::string txt;
        bool const last = k + 1 == n;
        if (last && ph == CANC && !x.is_group) {
            tipo = 3;
            txt = cat("Se comunica la cancelación de la iniciativa a los equipos implicados y se cierran las partidas abiertas.");
        } else if (last && ph == REJ) {
            tipo = 1;
            txt = "El Comité de Inversiones no aprueba la propuesta; se archiva la documentación.";
        } else {
            txt = texto_nota(c, x, tipo, d, r);
        }
        t.notas.set("portfolio_id", x.pid)
            .set("fecha", d)
            .set("tipo_nota", kTiposNota[tipo])
            .set("registrado_por", c.person(pick_person(c, x, r)))
            .set("nota", txt);
        t.notas.insert();
        ++x.n_notas;
        x.fecha_ult_nota = d;
        x.ult_nota = txt;
        w.activity.push_back(d);
    }
}

std::string texto_accion(Ini const& x, Rng& r) {
    int const v = r.range(0, 11);
    switch (v) {
        case 0: return "Preparar la documentación para el Comité de Inversiones";
        case 1: return "Solicitar oferta a proveedores homologados";
        case 2: return cat("Validar el alcance funcional con ", kUnidades[x.unidad]);
        case 3: return "Actualizar la planificación detallada del proyecto";
        case 4: return cat("Revisar la estimación económica de ", r.range(2025, 2026));
        case 5: return "Coordinar las pruebas de aceptación con los usuarios clave";
        case 6: return "Completar el análisis de riesgos de ciberseguridad";
        case 7: return cat("Cerrar el contrato con ", x.proveedor >= 0 ? kProveedores[x.proveedor] : std::string_view("el proveedor adjudicatario"));
        case 8: return cat("Enviar el informe de avance a la dirección de ", kUnidades[x.unidad]);
        case 9: return "Registrar las WBE en SAP";
        case 10: return "Definir los KPIs de seguimiento de beneficios";
        default: return cat("Planificar el despliegue ", contexto(x));
    }
}

void gen_acciones(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    Phase const ph = x.phase();
    int n = 0;
    if (x.is_group) n = r.range(0, 2);
    else switch (ph) {
            case PRE: n = r.range(0, 3); break;
            case APR: n = r.range(1, 4); break;
            case EXEC: n = r.range(0, 5); break;
            case DONE: n = r.range(0, 2); break;
            default: n = r.range(0, 1); break;
        }
    for (int k = 0; k < n; ++k) {
        Date const cre = random_between(r, x.alta, kToday);
        Date const lim = cre + r.range(7, 120);
        int est;
        if (ph == DONE) est = r.chance(0.9) ? 2 : 3;
        else if (ph == CANC || ph == REJ) est = r.chance(0.6) ? 3 : 2;
        else if (lim < kToday) est = std::array<int, 3>{2, 0, 3}[r.weighted(std::array<double, 3>{75, 15, 10})];
        else est = std::array<int, 3>{0, 1, 2}[r.weighted(std::array<double, 3>{50, 35, 15})];
        std::optional<Date> cierre;
        if (est >= 2) cierre = min(cre + r.range(1, std::max(1, lim - cre + 10)), kToday);
        std::optional<std::string> com;
        if (r.chance(0.4)) {
            int const v = r.range(0, 2);
            com = v == 0 ? std::string("Acordado en la última reunión de seguimiento.")
                  : v == 1 ? cat("Requiere coordinación con ", c.person(x.resp_ti), '.')
                           : std::string("Prioridad revisada por la Oficina del Portfolio.");
        }
        t.acciones.set("portfolio_id", x.pid)
            .set("accion", texto_accion(x, r))
            .set("responsable", c.person(pick_person(c, x, r)))
            .set("prioridad", kNivel3[r.weighted(std::array<double, 3>{30, 50, 20})])
            .set("estado", kAccionEstados[est])
            .set("fecha_creacion", cre)
            .set("fecha_limite", lim)
            .set("fecha_cierre", cierre)
            .set("comentarios", com);
        t.acciones.insert();
        ++x.n_acciones;
        w.activity.push_back(cre);
        if (est <= 1) {
            ++x.n_acc_pend;
            if (!x.prox_accion || lim < *x.prox_accion) x.prox_accion = lim;
        }
    }
}

void gen_descripciones(Ctx& c, Tables& t, Ini& x, Rng& r) {
    std::string_view const obj = objetivo(x);
    auto add = [&](std::string_view tipo, std::string const& txt) {
        t.descripciones.set("portfolio_id", x.pid)
            .set("tipo_descripcion", tipo)
            .set("descripcion", txt)
            .set("fecha_modificacion", random_between(r, x.alta, kToday))
            .set("autor", c.person(r.chance(0.7) ? x.ref_neg : x.resp_ti));
        t.descripciones.insert();
    };
    if (x.is_group) {
        x.descripcion_corta = cat("Programa que agrupa ", static_cast<int>(x.comps.size()), " iniciativas de ", kUnidades[x.unidad], " para ", obj, '.');
        add("Descripción general", cat(x.nombre, ". Programa que agrupa ", static_cast<int>(x.comps.size()), " iniciativas de la unidad de ",
                                       kUnidades[x.unidad], " con el objetivo común de ", obj, ". Se gestiona de forma coordinada en el ámbito ",
                                       kL1[x.l1], " con un único cuadro de mando."));
        return;
    }
    x.descripcion_corta = cat(upper_first(obj), ' ', contexto(x), '.');
    add("Descripción general", cat(x.nombre, ". La iniciativa, impulsada por la unidad de ", kUnidades[x.unidad], ", pretende ", obj,
                                   ". Se enmarca en el ámbito ", kL1[x.l1], " (", l2_table()[static_cast<std::size_t>(x.l2)].name,
                                   "). Origen: ", kOrigenes[x.origen], "; prioridad ", lower_first(kPrioridades[x.prioridad]), '.'));
    if (r.chance(0.7))
        add("Objetivo", cat("El objetivo es ", obj, ' ', contexto(x), ". Para ello se plantea ", accion_nombre(x), '.'));
    if (r.chance(0.6)) {
        std::vector<std::string> items;
        for (int i : distinct(r, static_cast<int>(std::size(kAlcanceItems)), 3)) items.emplace_back(kAlcanceItems[i]);
        add("Alcance", cat("El alcance incluye ", join(items, ", ", " y "), ". Quedan fuera del alcance las adaptaciones de sistemas no vinculados a ", kUnidades[x.unidad], '.'));
    }
    if (r.chance(0.3))
        add("Situación actual", cat("Actualmente los procesos ", contexto(x), " se apoyan en herramientas heterogéneas y con un elevado componente manual, lo que impide ", obj, " con la agilidad necesaria."));
    if (r.chance(0.4)) {
        auto const& kinds = l1_beneficios()[static_cast<std::size_t>(x.l1)];
        std::vector<std::string> b;
        for (int k : kinds) b.push_back(lower_first(kTiposBeneficio[k].name));
        add("Beneficios esperados", cat("Se esperan beneficios en términos de ", join(b, ", ", " y "), ", con un retorno estimado inferior a ", r.range(2, 5), " años."));
    }
}

void gen_justificaciones(Ctx& c, Tables& t, Ini& x, Rng& r) {
    Phase const ph = x.phase();
    auto add = [&](int tipo, std::string const& txt, Date d, std::string_view estado_rel) {
        t.justificaciones.set("portfolio_id", x.pid)
            .set("tipo_justificacion", kTiposJustificacion[tipo])
            .set("justificacion", txt)
            .set("estado_relacionado", estado_rel)
            .set("fecha", d)
            .set("autor", c.person(r.chance(0.7) ? x.ref_neg : c.people.pmo[r.index(c.people.pmo.size())]));
        t.justificaciones.insert();
    };
    Date const near = clamp(x.fecha_estado - r.range(0, 60), x.alta, kToday);
    if (ph == CANC) {
        static constexpr std::string_view m[] = {"la repriorización del portfolio digital", "el solapamiento con otra iniciativa de la unidad",
                                                 "la falta de presupuesto en el ejercicio", "un cambio de estrategia tecnológica",
                                                 "el incumplimiento de requisitos por parte del proveedor",
                                                 "la decisión de cubrir la necesidad con soluciones corporativas existentes"};
        add(3, cat("Se cancela la iniciativa por ", r.pick(m), '.'), x.cierre, kEstados[x.estado].name);
    } else if (ph == REJ) {
        static constexpr std::string_view m[] = {"falta de priorización frente a otras iniciativas", "un caso de negocio insuficiente",
                                                 "la ausencia de presupuesto disponible", "no estar alineada con el plan estratégico"};
        add(4, cat("El Comité de Inversiones rechaza la propuesta por ", r.pick(m), '.'), x.cierre, kEstados[x.estado].name);
    } else if (x.estado == kEstadoPausa) {
        add(5, cat("Se paraliza temporalmente la ejecución por ", r.pick(kRiesgosTexto), '.'), x.fecha_estado, kEstados[x.estado].name);
    }
    if (x.is_group) return;
    OptMoney const b = sum_opt(x.budget), i = sum_opt(x.importe);
    if (ph != CANC && ph != REJ && b && i && *b > 0) {
        double const pct = 100.0 * static_cast<double>(*i - *b) / static_cast<double>(*b);
        if (std::fabs(pct) > 10.0 && r.chance(0.7)) {
            static constexpr std::string_view up[] = {"la incorporación de nuevos requisitos", "el incremento de tarifas del proveedor", "la ampliación del despliegue a nuevas zonas"};
            static constexpr std::string_view dn[] = {"eficiencias obtenidas en la adjudicación", "la reducción del alcance inicial", "el traspaso de actividades a otra iniciativa"};
            add(1, pct > 0 ? cat("El importe total se incrementa un ", num1(pct), " % respecto al presupuesto inicial por ", r.pick(up), '.')
                           : cat("El importe total se reduce un ", num1(-pct), " % respecto al presupuesto inicial por ", r.pick(dn), '.'),
                near, kEstados[x.estado].name);
        }
    }
    if (ph == EXEC && x.fin && *x.fin < kToday) {
        std::string const txt = cat("La finalización prevista para ", mes_anio(*x.fin), " se retrasa por ", r.pick(kRiesgosTexto), '.');
        add(2, txt, clamp(*x.fin + r.range(0, 20), x.alta, kToday), kEstados[x.estado].name);
    }
    if ((ph == APR || ph == EXEC || ph == DONE) && r.chance(0.25)) {
        static constexpr std::string_view m[] = {"completar la documentación requerida", "la aprobación del Comité de Inversiones",
                                                 "la firma del contrato con el proveedor", "superar las pruebas de aceptación"};
        add(0, cat("Se solicita el paso a «", kEstados[x.estado].name, "» tras ", r.pick(m), '.'), x.fecha_estado, kEstados[x.estado].name);
    }
    if ((ph == EXEC || ph == APR) && r.chance(0.08))
        add(6, cat("Se amplía el alcance para incluir el despliegue ", contexto(x), '.'), near, kEstados[x.estado].name);
}

void gen_estado_especial(Ctx& c, Tables& t, Ini& x, Rng& r) {
    Phase const ph = x.phase();
    bool const open = ph == PRE || ph == APR || ph == EXEC;
    bool active = open && r.chance(x.is_group ? 0.1 : 0.09);
    bool historic = !active && r.chance(0.04);
    if (!active && !historic) return;
    std::array<double, std::size(kEstadosEspeciales)> w{15, 20, 25, 15, 10, 15};
    if (x.unidad == 11 || x.estado == kEstadoRevReg) w[4] *= 4;
    if (ph == PRE) w[0] *= 2;
    static constexpr std::string_view com[] = {
        "Congelada hasta la revisión del presupuesto del ejercicio.", "El Comité revisará el caso de negocio en su próxima sesión.",
        "Declarada prioridad estratégica por la Dirección Digital.", "Bloqueada hasta la resolución de una dependencia crítica.",
        "A la espera de la publicación de la normativa aplicable.", "Tramitación acelerada por urgencia de negocio."};
    auto add = [&](int v, bool act, Date ini, std::optional<Date> fin) {
        t.estado_especial.set("portfolio_id", x.pid)
            .set("estado_especial", kEstadosEspeciales[v])
            .set("activo", act ? 1 : 0)
            .set("fecha_inicio", ini)
            .set("fecha_fin", fin)
            .set("comentario", com[v])
            .set("registrado_por", c.person(c.people.pmo[r.index(c.people.pmo.size())]));
        t.estado_especial.insert();
    };
    Date const start = clamp(kToday - r.range(5, 200), x.alta, kToday);
    if (historic || r.chance(0.3)) {
        int const v = static_cast<int>(r.weighted(w));
        Date const hs = clamp(start - r.range(60, 300), x.alta, start);
        add(v, false, hs, start);
        w[static_cast<std::size_t>(v)] = 0.0;
    }
    if (active) {
        int const v = static_cast<int>(r.weighted(w));
        add(v, true, start, std::nullopt);
        x.estado_especial = v;
    }
}

void gen_impacto(Ctx& c, Tables& t, Ini& x, Rng& r) {
    if (x.phase() == REJ) return;
    if (!r.chance(x.unidad <= 4 ? 0.5 : 0.05)) return;
    static constexpr std::string_view frase[] = {
        "requiere adaptar los procedimientos de trabajo de los equipos de campo",
        "exige integrar la solución con los sistemas de control existentes",
        "implica redefinir roles y responsabilidades en el área",
        "requiere formar a los técnicos en el uso de las nuevas herramientas"};
    for (int a : distinct(r, static_cast<int>(std::size(kAreasTecnicas)), r.range(1, 3))) {
        int const ti = static_cast<int>(r.index(std::size(kTiposImpacto)));
        t.impacto_aatt.set("portfolio_id", x.pid)
            .set("area_tecnica", kAreasTecnicas[a])
            .set("tipo_impacto", kTiposImpacto[ti])
            .set("nivel_impacto", kRiesgos[r.weighted(std::array<double, 3>{25, 45, 30})])
            .set("descripcion", cat("Impacto en el área de ", kAreasTecnicas[a], ": ", frase[ti], '.'))
            .set("requiere_formacion", r.chance(0.5) || ti == 3 ? 1 : 0)
            .set("fecha_evaluacion", random_between(r, x.alta, min(x.alta + 200, kToday)))
            .set("evaluado_por", c.person(pick_person(c, x, r)));
        t.impacto_aatt.insert();
        x.aatt = true;
    }
}

void gen_memos(Ctx& c, Tables& t, Ini& x, Rng& r) {
    if (x.is_group || x.estado <= 1) return;
    OptMoney const bt = sum_opt(x.budget);
    if (!bt || *bt < 40000000 || !r.chance(0.85)) return;
    Phase const ph = x.phase();
    int const versions = r.chance(0.25) ? 2 : 1;
    bool const rec = kTipos[x.tipo].recurrente;
    Date const f1 = clamp(x.alta + r.range(10, 90), x.alta, kToday);
    for (int v = 1; v <= versions; ++v) {
        auto const& src = v == 1 ? x.budget : x.importe;
        std::array<OptMoney, 7> b{};
        for (std::size_t k = 0; k < 5; ++k) b[k] = src[k];
        OptMoney lastv;
        for (std::size_t k = 0; k < 5; ++k)
            if (b[k]) lastv = b[k];
        int const fy = x.fin ? x.fin->year() : 0;
        if (lastv && *lastv > 0 && b[4] && (rec || fy >= 2029)) b[5] = round_to(static_cast<double>(*lastv) * r.uniform(0.8, 1.1), 100000);
        if (b[5] && (fy >= 2030 || (rec && r.chance(0.6)))) b[6] = round_to(static_cast<double>(*b[5]) * r.uniform(0.8, 1.1), 100000);
        OptMoney const tot = sum_opt(b);
        bool const last = v == versions;
        int est;
        if (!last) est = 4;
        else if (ph == APR || ph == EXEC || ph == DONE) est = 2;
        else if (ph == REJ) est = 3;
        else if (ph == CANC) est = x.was_approved ? 2 : 1;
        else est = (x.estado == kEstadoPendAprob || x.estado == kEstadoRevReg) ? 1 : 0;
        Date const fm = v == 1 ? f1 : min(f1 + r.range(30, 200), kToday);
        OptMoney van;
        std::optional<double> tir, pb;
        if (r.chance(0.8) && tot) {
            van = round_to(static_cast<double>(*tot) * r.uniform(0.3, 2.5), 100000);
            tir = round1(r.uniform(6.0, 32.0));
            pb = round1(r.uniform(1.5, 7.0));
        }
        std::string res = cat("Investment memo ", de_accion(x), ". Se solicita un presupuesto total de ", eur(tot.value_or(0)), " para ", periodo_txt(x).empty() ? std::string("los próximos ejercicios") : periodo_txt(x), '.');
        if (van) res += cat(" El VAN estimado es de ", eur(*van), " con una TIR del ", num1(*tir), " % y un periodo de retorno de ", num1(*pb), " años.");
        if (v > 1) res += " Esta versión actualiza los importes tras la revisión del alcance.";
        t.investment_memos.set("portfolio_id", x.pid)
            .set("version", v)
            .set("titulo", cat("Investment Memo ", x.pid, " - ", truncate_utf8(x.nombre, 90), v > 1 ? " (v2)" : ""))
            .set("fecha_memo", fm)
            .set("estado_memo", kMemoEstados[est])
            .set("autor", c.person(x.ref_neg));
        for (int k = 0; k < 7; ++k) t.investment_memos.money(cat("budget_", 2024 + k), b[static_cast<std::size_t>(k)]);
        t.investment_memos.money("budget_total", tot).money("van", van).set("tir", tir).set("payback_anios", pb).set("resumen", res);
        t.investment_memos.insert();
        if (last) {
            x.van = van;
            x.tir = tir;
            x.payback = pb;
        }
    }
    x.memo = true;
}

constexpr std::string_view kSemaforosMinus[] = {"verde", "ámbar", "rojo"};
constexpr std::string_view kRequisitos[] = {
    "El sistema permitirá la consulta de la información en tiempo real.",
    "La solución se integrará con el directorio corporativo para la autenticación de usuarios.",
    "Se generarán informes periódicos exportables a Excel.",
    "Se registrará la trazabilidad de todas las operaciones realizadas.",
    "La aplicación estará disponible en dispositivos móviles para el personal de campo.",
    "Se definirán perfiles de acceso diferenciados por rol.",
    "La solución cumplirá la normativa de protección de datos (RGPD)."};

std::string money_or_dash(OptMoney m) { return m ? eur(*m) : std::string("-"); }

std::string eco_tabla(Ini const& x) {
    std::string s = "Año | Presupuesto | Importe | Aprobado | Facturado";
    bool any = false;
    for (int k = 0; k < kNumYears; ++k) {
        auto const kk = static_cast<std::size_t>(k);
        if (!x.budget[kk] && !x.importe[kk]) continue;
        any = true;
        s += cat('\n', kFirstYear + k, " | ", money_or_dash(x.budget[kk]), " | ", money_or_dash(x.importe[kk]), " | ",
                 money_or_dash(x.aprobado[kk]), " | ", money_or_dash(x.fact[kk]));
    }
    if (!any) return "Sin importes planificados para el periodo 2024-2028.";
    return s;
}

std::string conclusion_doc(Ctx const& c, Ini const& x, int tipo, Rng& r) {
    Phase const ph = x.phase();
    switch (tipo) {
        case D_ACTA:
            if (ph == REJ) return "El comité acuerda no aprobar la propuesta por falta de priorización frente a otras iniciativas.";
            if (ph == CANC) return "El comité acuerda la cancelación de la iniciativa y el cierre de las partidas abiertas.";
            if (ph == PRE) return "El comité solicita completar el análisis económico antes de su aprobación.";
            return "El comité acuerda aprobar la iniciativa y solicita un seguimiento trimestral del avance.";
        case D_IM:
        case D_BC:
            if (ph == REJ) return "La recomendación final es no abordar la iniciativa en el ejercicio actual.";
            return cat("Se recomienda su aprobación por su alineación con el ámbito ", kL1[x.l1], " y por el retorno esperado.");
        case D_INFORME:
            if (x.avance) return cat("El avance global se sitúa en el ", num1(*x.avance), " % con semáforo ", kSemaforosMinus[std::max(0, x.semaforo)], '.');
            return "El informe no reporta todavía avance físico.";
        case D_OFERTA:
            return cat("La oferta incluye ", r.range(3, 12), " meses de garantía y soporte posterior a la puesta en producción.");
        default:
            return cat("El documento identifica como responsable de negocio a ", c.person(x.ref_neg), " y como responsable técnico a ", c.person(x.resp_ti), '.');
    }
}

/// Invoiced amount up to (and including) the month of `d`.
OptMoney facturado_a(Work const& w, Date d) {
    OptMoney s;
    for (auto const& [mi, cents] : w.invoices)
        if (mi <= d.month_index()) s = s.value_or(0) + cents;
    return s;
}
/// Last progress record on or before `d`.
AvanceRow const* avance_a(Work const& w, Date d) {
    AvanceRow const* a = nullptr;
    for (auto const& row : w.avance)
        if (row.fecha <= d) a = &row;
    return a;
}

std::string doc_resumen(Ctx const& c, Ini const& x, int tipo, Date subida, Work const& w, Rng& r) {
    std::string const nom = cat("«", x.nombre, "»");
    std::string_view const uni = kUnidades[x.unidad];
    std::string_view const obj = objetivo(x);
    OptMoney const tot = sum_opt(x.importe), apr = sum_opt(x.aprobado), fac = sum_opt(x.fact), bud = sum_opt(x.budget);
    std::string_view const prov = x.proveedor >= 0 ? kProveedores[x.proveedor] : kProveedores[static_cast<std::size_t>(x.seq) % std::size(kProveedores)];
    std::vector<std::string> s;
    switch (tipo) {
        case D_BC: s.push_back(cat("El business case de la iniciativa ", x.pid, ' ', nom, " justifica la necesidad de ", obj, '.')); break;
        case D_IM: s.push_back(cat("El investment memo presenta al Comité de Inversiones la iniciativa ", nom, " (", x.pid, "), promovida por la unidad de ", uni, '.')); break;
        case D_FICHA: s.push_back(cat("La ficha recoge los datos principales de la iniciativa ", x.pid, ", ", nom, ", cuyo referente de negocio es ", c.person(x.ref_neg), '.')); break;
        case D_ACTA: s.push_back(cat("El acta del Comité de Inversiones del ", fecha_larga(max(x.alta, subida - r.range(1, 10))), " recoge el tratamiento de la iniciativa ", x.pid, ' ', nom, '.')); break;
        case D_EF: s.push_back(cat("La especificación funcional detalla los requisitos de ", nom, " (", x.pid, ") para la unidad de ", uni, '.')); break;
        case D_OFERTA: s.push_back(cat("La oferta de ", prov, " para ", nom, " (", x.pid, ") propone un equipo mixto de consultoría y desarrollo.")); break;
        case D_INFORME: s.push_back(cat("El informe de seguimiento de ", mes_anio(subida), " resume el estado de la iniciativa ", x.pid, ' ', nom, '.')); break;
        default: s.push_back(cat("El plan de proyecto de ", nom, " (", x.pid, ") establece las fases, los hitos y los recursos necesarios.")); break;
    }
    if (x.is_group) s.push_back(cat("El programa agrupa ", static_cast<int>(x.comps.size()), " iniciativas de ", uni, " con el objetivo común de ", obj, '.'));
    else if (tipo == D_BC) s.push_back(cat("La solución propuesta consiste en ", accion_nombre(x), '.'));
    else {
        int const v = r.range(0, 2);
        s.push_back(v == 0   ? cat("Su objetivo principal es ", obj, ' ', contexto(x), '.')
                    : v == 1 ? cat("La iniciativa persigue ", obj, '.')
                             : cat("Se plantea con el fin de ", obj, ", dentro del ámbito ", kL1[x.l1], '.'));
    }
    auto const [y1, y2] = active_years(x);
    std::string const per = y1 == y2 ? cat("el ejercicio ", y1) : cat("el periodo ", y1, '-', y2);
    if (tot && *tot > 0) {
        switch (tipo) {
            case D_OFERTA:
            {
                i64 const ofertado = round_to(static_cast<double>(*tot) * r.uniform(0.3, 0.9), 100);
                int const meses = r.range(4, 24);
                s.push_back(cat("El importe ofertado asciende a ", eur(ofertado), " (IVA no incluido), con un plazo de ejecución de ", meses, " meses."));
            }
                break;
            case D_INFORME:
                if (OptMoney const fa = x.is_group ? fac : facturado_a(w, subida))
                    s.push_back(cat("A la fecha del informe se han facturado ", eur(*fa), ", un ", num1(100.0 * static_cast<double>(*fa) / static_cast<double>(*tot)), " % del importe previsto de ", eur(*tot), '.'));
                else s.push_back(cat("Todavía no se ha registrado facturación sobre un importe previsto de ", eur(*tot), '.'));
                break;
            case D_IM: {
                int ymax = y1;
                i64 bmax = 0;
                for (int k = 0; k < kNumYears; ++k) {
                    i64 const v = x.budget[static_cast<std::size_t>(k)].value_or(0);
                    if (v > bmax) { bmax = v; ymax = kFirstYear + k; }
                }
                s.push_back(cat("Se solicita un presupuesto total de ", eur(bud.value_or(*tot)), " para ", per, ", del que ", eur(bmax), " corresponden a ", ymax, '.'));
                break;
            }
            default:
                s.push_back(cat("El importe total estimado asciende a ", eur(*tot), " para ", per,
                                apr && *apr > 0 ? cat(", de los cuales ", eur(*apr), " ya están aprobados.") : std::string(".")));
        }
    } else if (bud && *bud > 0) {
        s.push_back(cat("El presupuesto inicialmente solicitado era de ", eur(*bud), ", sin importe vigente tras la decisión adoptada."));
    } else {
        s.push_back("El documento no recoge importes económicos para el periodo 2024-2028.");
    }
    std::vector<std::string> opt;
    Phase const ph = x.phase();
    if (ph == DONE && x.fin) opt.push_back(cat("La iniciativa finalizó el ", fecha_larga(*x.fin), '.'));
    else if (ph == CANC) opt.push_back(cat("La iniciativa fue cancelada el ", fecha_larga(x.cierre), '.'));
    else if (ph == REJ) opt.push_back(cat("La propuesta planteaba el inicio de los trabajos el ", fecha_larga(x.inicio), '.'));
    else if (x.inicio <= subida && (ph == EXEC || ph == APR))
        opt.push_back(cat("Los trabajos comenzaron el ", fecha_larga(x.inicio),
                          x.fin ? cat(" y su finalización está prevista para ", mes_anio(*x.fin), '.') : std::string(", sin fecha de finalización comprometida.")));
    else
        opt.push_back(cat("El inicio está previsto para el ", fecha_larga(x.inicio), x.fin ? cat(" y la finalización para ", mes_anio(*x.fin), '.') : std::string(".")));
    auto const rr = distinct(r, static_cast<int>(std::size(kRiesgosTexto)), 2);
    if (r.chance(0.5)) opt.push_back(cat("Entre los principales riesgos se identifican ", kRiesgosTexto[rr[0]], " y ", kRiesgosTexto[rr[1]], '.'));
    else opt.push_back(cat("Como riesgo principal se señala ", kRiesgosTexto[rr[0]], ", que se mitigará mediante ", r.pick(kMitigaciones), '.'));
    if (tipo == D_INFORME && !x.is_group) {
        AvanceRow const* a = avance_a(w, subida);
        opt.push_back(a ? cat("El avance global se sitúa en el ", num1(a->real), " % con semáforo ", kSemaforosMinus[a->sem], '.')
                        : std::string("El informe no reporta todavía avance físico."));
    } else {
        opt.push_back(conclusion_doc(c, x, tipo, r));
    }
    for (auto& o : opt)
        if (r.chance(0.75)) s.push_back(std::move(o));
    return join(s, " ", " ");
}

std::string section_text(Ctx const& c, Ini const& x, int kind, int tipo, Date subida, Work const& w, Rng& r) {
    std::string_view const obj = objetivo(x);
    switch (kind) {
        case S_RES:
            if (tipo == D_ACTA)
                return cat("Se presenta la iniciativa ", x.pid, " «", x.nombre, "», en estado «", kEstados[x.estado].name, "», cuya finalidad es ", obj, '.');
            return cat(upper_first(accion_nombre(x)), " para ", obj, ". Unidad promotora: ", kUnidades[x.unidad], "; referente de negocio: ", c.person(x.ref_neg), '.');
        case S_SIT:
            return cat("Actualmente los procesos ", contexto(x), " se apoyan en herramientas heterogéneas y con un elevado componente manual, lo que impide ", obj,
                       " con la agilidad necesaria. Se han identificado ineficiencias en la calidad de los datos y en los tiempos de respuesta.");
        case S_PROP:
            if (r.chance(0.5)) return cat("Se propone ", accion_nombre(x), ", con un despliegue en ", r.range(2, 4), " fases y una arquitectura integrada con los sistemas corporativos.");
            return "Se han analizado tres alternativas (desarrollo a medida, solución de mercado y extensión de la plataforma actual); se recomienda la solución de mercado por coste total y plazo.";
        case S_ALC: {
            std::vector<std::string> items;
            for (int i : distinct(r, static_cast<int>(std::size(kAlcanceItems)), 3)) items.emplace_back(kAlcanceItems[i]);
            return cat("El alcance incluye ", join(items, ", ", " y "), '.');
        }
        case S_ECO: return eco_tabla(x);
        case S_PLAN: {
            std::vector<std::string> names;
            if (!w.hitos.empty()) for (auto const& h : w.hitos) names.push_back(h.name);
            else for (auto const n : hitos_de_tipo(x.tipo)) names.emplace_back(n);
            return cat("Inicio: ", fecha_larga(x.inicio), ". Fin previsto: ", x.fin ? mes_anio(*x.fin) : std::string("por determinar"),
                       ". Hitos principales: ", join(names, ", ", " y "), '.');
        }
        case S_RIE: {
            auto const rr = distinct(r, static_cast<int>(std::size(kRiesgosTexto)), 3);
            return cat("Riesgos identificados: 1) ", kRiesgosTexto[rr[0]], "; 2) ", kRiesgosTexto[rr[1]], "; 3) ", kRiesgosTexto[rr[2]],
                       ". Medida de mitigación principal: ", r.pick(kMitigaciones), '.');
        }
        case S_BEN: {
            auto const& kinds = l1_beneficios()[static_cast<std::size_t>(x.l1)];
            std::vector<std::string> b;
            for (int k : kinds) b.push_back(lower_first(kTiposBeneficio[k].name));
            return cat("Se esperan beneficios en términos de ", join(b, ", ", " y "), ". El retorno de la inversión se estima en ", r.range(2, 5), " años.");
        }
        case S_CON:
            if (tipo == D_INFORME) {
                for (auto const& h : w.hitos)
                    if (!h.real && h.estado != 4) return cat("Próximos pasos: completar el hito «", h.name, "», previsto para ", mes_anio(h.planned), '.');
                return "Próximos pasos: cierre administrativo y traspaso al servicio de mantenimiento.";
            }
            return x.phase() == REJ ? std::string("No se recomienda abordar la iniciativa en el ejercicio actual.")
                                    : cat("Se recomienda abordar ", accion_nombre(x), " en los plazos propuestos.");
        case S_ACU: {
            std::string const a1 = conclusion_doc(c, x, D_ACTA, r);
            return cat("1. ", a1, "\n2. Realizar un seguimiento trimestral del avance y de la facturación.\n3. Revisar los beneficios comprometidos en el próximo comité.");
        }
        case S_EQU:
            if (tipo == D_ACTA) {
                std::vector<std::string> names{c.person(x.ref_neg), c.person(x.resp_ti)};
                for (int i : distinct(r, static_cast<int>(c.people.pmo.size()), r.range(1, 3))) names.push_back(c.person(c.people.pmo[static_cast<std::size_t>(i)]));
                return cat("Asistentes: ", join(names, ", ", " y "), '.');
            }
            return cat("Referente de negocio: ", c.person(x.ref_neg), ".\nReferente BI: ", x.ref_bi >= 0 ? c.person(x.ref_bi) : std::string("sin asignar"),
                       ".\nResponsable TI: ", c.person(x.resp_ti), ".\nProveedor: ",
                       with_dot(x.proveedor >= 0 ? std::string(kProveedores[x.proveedor]) : std::string("pendiente de adjudicación")));
        case S_REQ: {
            auto const rq = distinct(r, static_cast<int>(std::size(kRequisitos)), 3);
            return cat("RF-01: ", kRequisitos[rq[0]], "\nRF-02: ", kRequisitos[rq[1]], "\nRF-03: ", kRequisitos[rq[2]]);
        }
        default: {
            OptMoney const fac = x.is_group ? sum_opt(x.fact) : facturado_a(w, subida);
            AvanceRow const* a = avance_a(w, subida);
            std::string s = a ? cat("Durante el periodo el avance global alcanza el ", num1(a->real), " % (semáforo ", kSemaforosMinus[a->sem], ").")
                              : std::string("Durante el periodo no se ha registrado avance físico.");
            if (fac) s += cat(" Facturado acumulado: ", eur(*fac), '.');
            return s;
        }
    }
}

void gen_documentos(Ctx& c, Tables& t, Ini& x, Rng& r, Work& w) {
    Phase const ph = x.phase();
    int n = 0;
    std::array<double, 8> tw{};   // BC IM FICHA ACTA EF OFERTA INFORME PLAN
    if (x.is_group) { n = r.range(1, 2); tw = {0, 0, 2, 1, 0, 0, 2, 0}; }
    else switch (ph) {
            case PRE: n = r.range(0, 2); tw = {4, 0, 4, 0, 1, 1, 0, 0}; break;
            case APR: n = r.range(1, 3); tw = {3, 0, 3, 2, 1, 2, 0, 2}; break;
            case EXEC: n = r.range(1, 5); tw = {1, 0, 2, 2, 2, 1, 4, 2}; break;
            case DONE: n = r.range(1, 4); tw = {0, 0, 2, 2, 1, 0, 3, 1}; break;
            case CANC: n = r.range(0, 2); tw = {2, 0, 2, 3, 0, 0, 0, 0}; break;
            default: n = r.range(0, 1); tw = {2, 0, 2, 3, 0, 0, 0, 0}; break;
        }
    struct Doc {
        int tipo, estado;
        Date subida;
    };
    std::vector<Doc> docs;
    auto new_doc = [&](int tipo) {
        int const est = static_cast<int>(r.weighted(std::array<double, 4>{6, 83, 5, 6}));
        Date const sub = est == 0 ? clamp(kToday - r.range(0, 10), x.alta, kToday) : random_between(r, x.alta, kToday);
        docs.push_back({tipo, est, sub});
    };
    if (x.memo) new_doc(D_IM);
    for (int k = 0; k < n; ++k) new_doc(static_cast<int>(r.weighted(tw)));
    std::stable_sort(docs.begin(), docs.end(), [](Doc const& a, Doc const& b) { return a.subida < b.subida; });
    std::array<int, 8> version{};
    auto const& dt = doc_tipos();
    for (Doc const& d : docs) {
        int const v = ++version[static_cast<std::size_t>(d.tipo)];
        std::string const vs = v > 1 ? cat("_v", v) : std::string();
        std::string fname;
        switch (d.tipo) {
            case D_BC: fname = cat("Business_Case_", x.pid, '_', slug(x.nombre, 3), vs, ".pdf"); break;
            case D_IM: fname = cat("IM_", x.pid, "_v", v, ".pdf"); break;
            case D_FICHA: fname = cat("Ficha_", x.pid, vs, ".docx"); break;
            case D_ACTA: fname = cat("Acta_Comite_Inversiones_", d.subida.iso(), '_', x.pid, ".pdf"); break;
            case D_EF: fname = cat("EF_", x.pid, '_', slug(x.nombre, 4), vs, ".docx"); break;
            case D_OFERTA: fname = cat("Oferta_", slug(x.proveedor >= 0 ? kProveedores[x.proveedor] : r.pick(kProveedores), 2), '_', x.pid, vs, ".pdf"); break;
            case D_INFORME: fname = cat("Informe_Seguimiento_", x.pid, '_', d.subida.year(), pad(d.subida.month(), 2), vs, ".pdf"); break;
            default: fname = cat("Plan_Proyecto_", x.pid, vs, ".xlsx"); break;
        }
        DocTipo const& ty = dt[static_cast<std::size_t>(d.tipo)];
        i64 const size = static_cast<i64>(std::clamp(r.lognormal(std::log(600000.0), 0.8), 20000.0, 25.0e6));
        std::optional<int> pages;
        if (ty.formato == "XLSX") pages = r.range(1, 6);
        else if (d.tipo == D_ACTA) pages = r.range(2, 8);
        else pages = r.range(3, 45);
        std::optional<std::string> resumen, obs;
        std::optional<Date> proc;
        if (d.estado != 0) proc = min(d.subida + r.range(0, 2), kToday);
        if (d.estado == 1) resumen = doc_resumen(c, x, d.tipo, d.subida, w, r);
        else if (d.estado == 0) obs = std::string("En cola de procesamiento.");
        else if (d.estado == 2) {
            static constexpr std::string_view e[] = {"No se pudo extraer texto: documento escaneado sin OCR.",
                                                     "Formato de archivo dañado o protegido con contraseña.",
                                                     "Tiempo máximo de procesamiento excedido."};
            obs = std::string(r.pick(e));
        } else {
            static constexpr std::string_view e[] = {"Documento duplicado de una versión anterior.",
                                                     "Documento sin contenido relevante para el resumen.", "Plantilla vacía."};
            obs = std::string(r.pick(e));
        }
        int const nitems = d.estado == 1 ? std::min(static_cast<int>(ty.secciones.size()), r.range(3, 6)) : 0;
        t.documentos.set("portfolio_id", x.pid)
            .set("nombre_fichero", fname)
            .set("tipo_documento", ty.name)
            .set("formato", ty.formato)
            .set("version", v)
            .set("tamano_bytes", size)
            .set("num_paginas", pages)
            .set("fecha_subida", d.subida)
            .set("subido_por", c.person(pick_person(c, x, r)))
            .set("estado", kDocEstados[d.estado])
            .set("fecha_procesado", proc)
            .set("resumen_documento", resumen)
            .set("num_items", nitems)
            .set("observaciones", obs);
        i64 const doc_id = t.documentos.insert();
        ++x.n_docs;
        if (d.estado == 1) ++x.n_docs_ok;
        w.activity.push_back(d.subida);
        int page = 1;
        for (int k = 0; k < nitems; ++k) {
            auto const& [title, kind] = ty.secciones[static_cast<std::size_t>(k)];
            std::string const txt = section_text(c, x, kind, d.tipo, d.subida, w, r);
            std::string_view const tc = kind == S_ECO ? "Tabla" : (kind == S_EQU || kind == S_REQ || kind == S_ACU) ? "Lista" : "Texto";
            t.documentos_items.set("portfolio_id", x.pid)
                .set("documento_id", doc_id)
                .set("orden", k + 1)
                .set("seccion", title)
                .set("pagina", std::min(page, pages.value_or(page)))
                .set("tipo_contenido", tc)
                .set("contenido", txt)
                .set("num_palabras", count_words(txt));
            t.documentos_items.insert();
            page += r.range(1, 4);
        }
    }
}

void gen_children(Ctx& c, Tables& t, std::size_t i) {
    Ini& x = c.inis[i];
    Rng r = Rng::stream(c.opt.seed, x.is_group ? P_GROUPCHILD : P_CHILD, i);
    Work w;
    if (!x.is_group) {
        gen_hechos(c, t, x, r, w);
        gen_facturacion(c, t, x, r, w);
        gen_wbes(t, x, r, w);
        gen_avance(c, t, x, r, w);
        gen_hitos(c, t, x, r, w);
        gen_fichas(c, t, x, r, w);
        gen_ltp(c, t, x, r);
        gen_beneficios(t, x, r);
    }
    gen_etiquetas(c, t, x, r);
    if (!x.is_group) gen_dependencias(c, t, x, i, r);
    gen_notas(c, t, x, r, w);
    gen_acciones(c, t, x, r, w);
    gen_descripciones(c, t, x, r);
    gen_justificaciones(c, t, x, r);
    gen_estado_especial(c, t, x, r);
    if (!x.is_group) {
        gen_impacto(c, t, x, r);
        gen_memos(c, t, x, r);
    }
    gen_documentos(c, t, x, r, w);
    Date act = max(x.alta, x.fecha_estado);
    for (Date d : w.activity) act = max(act, d);
    x.fecha_act = min(act, kToday);
}

// ───────────────────────────── Pass D/E: calculated fields and 1:1 tables ─────────────────────────────

void aggregate_group(Ctx& c, Ini& g) {
    double sum = 0.0;
    int n = 0;
    for (int i : g.comps) {
        Ini const& x = c.inis[static_cast<std::size_t>(i)];
        if (x.avance) {
            sum += *x.avance;
            ++n;
            g.semaforo = std::max(g.semaforo, x.semaforo);
            if (!g.fecha_avance || *g.fecha_avance < *x.fecha_avance) g.fecha_avance = x.fecha_avance;
        }
        if (x.prox_hito && (!g.prox_hito || *x.prox_hito < *g.prox_hito)) g.prox_hito = x.prox_hito;
        g.fecha_act = max(g.fecha_act, x.fecha_act);
    }
    if (n > 0) g.avance = round1(sum / n);
}

std::optional<std::string_view> riesgo_de(Ini const& x) {
    Phase const ph = x.phase();
    if (ph == CANC || ph == REJ) return std::nullopt;
    if (ph == DONE) return kRiesgos[2];
    int score = 0;
    if (x.fin && *x.fin < kToday) score += 2;
    if (x.semaforo == 2) score += 2;
    else if (x.semaforo == 1) score += 1;
    OptMoney const b = sum_opt(x.budget), i = sum_opt(x.importe);
    if (b && i && *b > 0) {
        double const pct = std::fabs(100.0 * static_cast<double>(*i - *b) / static_cast<double>(*b));
        score += pct > 20.0 ? 2 : pct > 10.0 ? 1 : 0;
    }
    if (x.estado_especial == 0 || x.estado_especial == 3) score += 1;
    if (x.estado == kEstadoPausa) score += 1;
    return kRiesgos[score >= 3 ? 0 : score >= 1 ? 1 : 2];
}

std::optional<std::string> person_opt(Ctx const& c, int idx) {
    if (idx < 0) return std::nullopt;
    return c.person(idx);
}

void insert_one_to_one(Ctx& c, Tables& t, std::size_t i) {
    Ini const& x = c.inis[i];
    Rng r = Rng::stream(c.opt.seed, 6, i);
    OptMoney const bt = sum_opt(x.budget), it = sum_opt(x.importe), at = sum_opt(x.aprobado), ft = sum_opt(x.fact);
    std::optional<std::string> grp_pid, grp_nom;
    if (x.group >= 0) {
        grp_pid = c.inis[static_cast<std::size_t>(x.group)].pid;
        grp_nom = c.inis[static_cast<std::size_t>(x.group)].nombre;
    }
    std::optional<std::string_view> cini;
    if (x.cini >= 0) cini = kCinis[x.cini];
    std::optional<std::string_view> prov;
    if (x.proveedor >= 0) prov = kProveedores[x.proveedor];
    std::string_view const cluster = kClusters[kUnidadCluster[x.unidad]];
    std::string_view const l2 = l2_table()[static_cast<std::size_t>(x.l2)].name;

    // iniciativas
    t.iniciativas.set("portfolio_id", x.pid).set("nombre", x.nombre).set("unidad", kUnidades[x.unidad]).set("tipo", kTipos[x.tipo].name)
        .set("estado_de_la_iniciativa", kEstados[x.estado].name).set("fecha_alta", x.alta).set("fecha_inicio", x.inicio).set("fecha_fin", x.fin);
    for (int k = 0; k < kNumYears; ++k) t.iniciativas.money(cat("budget_", kFirstYear + k), x.budget[static_cast<std::size_t>(k)]);
    t.iniciativas.money("budget_total", bt).set("es_grupo", x.is_group ? 1 : 0).set("portfolio_id_grupo", grp_pid).set("fecha_modificacion", x.fecha_act);
    t.iniciativas.insert();

    // datos_descriptivos
    t.datos_descriptivos.set("portfolio_id", x.pid).set("nombre", x.nombre).set("descripcion_corta", x.descripcion_corta)
        .set("unidad", kUnidades[x.unidad]).set("cluster", cluster).set("tipo", kTipos[x.tipo].name).set("origen", kOrigenes[x.origen])
        .set("digital_framework_level_1", kL1[x.l1]).set("digital_framework_level_2", l2).set("prioridad", kPrioridades[x.prioridad])
        .set("alineacion_estrategica", kAlineacion[x.alineacion]).set("ambito_geografico", kPrefixes[x.prefix].ambito)
        .set("referente_negocio", c.person(x.ref_neg)).set("referente_bi", person_opt(c, x.ref_bi)).set("responsable_ti", c.person(x.resp_ti))
        .set("proveedor_principal", prov).set("codigo_jira", x.codigo_jira).set("fecha_alta", x.alta);
    t.datos_descriptivos.insert();

    // informacion_economica
    Phase const ph = x.phase();
    std::optional<std::string> oi;
    if (x.capex != 1 && !x.is_group && (ph == APR || ph == EXEC || ph == DONE || (ph == CANC && x.was_approved)))
        oi = cat("OI-", x.fecha_aprob ? x.fecha_aprob->year() : x.inicio.year(), '-', pad(10000 + static_cast<int>(i) * 7 + r.range(0, 6), 5));
    OptMoney van = x.van;
    std::optional<double> tir = x.tir, pb = x.payback;
    if (!x.memo && it && *it > 0 && !x.is_group && ph != REJ && r.chance(0.55)) {
        van = round_to(static_cast<double>(*it) * r.uniform(0.2, 2.5), 100000);
        tir = round1(r.uniform(4.0, 35.0));
        pb = round1(r.uniform(1.0, 8.0));
    }
    OptMoney ahorro = x.benef_eur;
    if (!ahorro && it && *it > 0 && !x.is_group && r.chance(0.45)) ahorro = round_to(static_cast<double>(*it) * r.uniform(0.05, 0.4), 100000);
    std::optional<int> vida;
    if (x.capex != 1) vida = r.range(3, 10);
    t.informacion_economica.set("portfolio_id", x.pid).set("cini", cini).set("capex_opex", kCapexOpex[x.capex])
        .set("clasificacion_regulatoria", kClasifReg[x.clasif])
        .set("centro_coste", cat("CC-", kUnidadCodigo[x.unidad], '-', pad(r.range(100, 999), 3)))
        .set("orden_inversion", oi).set("moneda", "EUR").set("porcentaje_capex", x.capex == 0 ? 100 : x.capex == 1 ? 0 : r.range(40, 85))
        .money("importe_total", it).money("importe_aprobado_total", at).money("van", van).set("tir", tir).set("payback_anios", pb)
        .money("ahorro_anual_estimado", ahorro).set("vida_util_anios", vida).set("fecha_aprobacion_economica", x.fecha_aprob);
    t.informacion_economica.insert();

    // datos_relevantes
    Table& d = t.datos_relevantes;
    d.set("portfolio_id", x.pid).set("nombre", x.nombre).set("unidad", kUnidades[x.unidad]).set("cluster", cluster)
        .set("tipo", kTipos[x.tipo].name).set("origen", kOrigenes[x.origen]).set("estado_de_la_iniciativa", kEstados[x.estado].name)
        .set("fecha_ultimo_estado", x.fecha_estado).set("dias_en_estado", kToday - x.fecha_estado)
        .set("digital_framework_level_1", kL1[x.l1]).set("digital_framework_level_2", l2).set("prioridad", kPrioridades[x.prioridad])
        .set("alineacion_estrategica", kAlineacion[x.alineacion]).set("ambito_geografico", kPrefixes[x.prefix].ambito)
        .set("referente_negocio", c.person(x.ref_neg)).set("referente_bi", person_opt(c, x.ref_bi)).set("responsable_ti", c.person(x.resp_ti))
        .set("proveedor_principal", prov).set("fecha_alta", x.alta).set("fecha_inicio", x.inicio).set("fecha_fin", x.fin)
        .set("capex_opex", kCapexOpex[x.capex]).set("cini", cini);
    for (int k = 0; k < kNumYears; ++k) {
        auto const kk = static_cast<std::size_t>(k);
        int const y = kFirstYear + k;
        d.money(cat("budget_", y), x.budget[kk]).money(cat("importe_", y), x.importe[kk])
            .money(cat("importe_aprobado_", y), x.aprobado[kk]).money(cat("importe_facturacion_", y), x.fact[kk]);
    }
    OptMoney desv;
    std::optional<double> pdesv, pejec;
    if (bt && it) desv = *it - *bt;
    if (bt && it && *bt > 0) pdesv = round1(100.0 * static_cast<double>(*it - *bt) / static_cast<double>(*bt));
    i64 const imp_ej = x.importe[0].value_or(0) + x.importe[1].value_or(0);
    if (imp_ej > 0) pejec = round1(100.0 * static_cast<double>(x.fact[0].value_or(0) + x.fact[1].value_or(0)) / static_cast<double>(imp_ej));
    OptMoney pend;
    if (x.aprobado[1]) pend = *x.aprobado[1] - x.fact[1].value_or(0);
    bool const en_pres = x.importe[1].value_or(0) > 0 && ph != CANC && ph != REJ;
    std::optional<std::string_view> est_esp;
    if (x.estado_especial >= 0) est_esp = kEstadosEspeciales[x.estado_especial];
    std::optional<std::string_view> sem;
    if (x.semaforo >= 0) sem = kSemaforos[x.semaforo];
    d.money("budget_total", bt).money("importe_total", it).money("importe_aprobado_total", at).money("importe_facturacion_total", ft)
        .money("desviacion_importe", desv).set("porcentaje_desviacion", pdesv).set("porcentaje_ejecucion", pejec)
        .money("importe_pendiente_facturar_2025", pend).set("en_presupuesto_del_anio", en_pres ? 1 : 0)
        .set("es_grupo", x.is_group ? 1 : 0).set("portfolio_id_grupo", grp_pid).set("nombre_grupo", grp_nom)
        .set("num_componentes", static_cast<int>(x.comps.size())).set("num_hechos", x.n_hechos).set("num_documentos", x.n_docs)
        .set("num_documentos_procesados", x.n_docs_ok).set("num_notas", x.n_notas).set("num_acciones", x.n_acciones)
        .set("num_acciones_pendientes", x.n_acc_pend).set("num_etiquetas", x.n_etiq)
        .set("etiquetas", x.etiquetas.empty() ? std::optional<std::string>() : std::optional<std::string>(x.etiquetas))
        .set("num_dependencias", x.n_dep).set("num_ltp", x.n_ltp).set("num_wbes", x.n_wbes).set("num_beneficios", x.n_benef)
        .money("beneficio_total_estimado", x.benef_eur).set("porcentaje_avance", x.avance).set("fecha_ultimo_avance", x.fecha_avance)
        .set("semaforo", sem).set("riesgo", riesgo_de(x)).set("estado_especial", est_esp).set("tiene_investment_memo", x.memo ? 1 : 0)
        .set("afecta_aatt", x.aatt ? 1 : 0).set("fecha_ultima_nota", x.fecha_ult_nota)
        .set("ultima_nota", x.fecha_ult_nota ? std::optional<std::string>(x.ult_nota) : std::nullopt)
        .set("fecha_proxima_accion", x.prox_accion).set("fecha_proximo_hito", x.prox_hito).set("fecha_actualizacion", x.fecha_act);
    d.insert();
}

void insert_grupos(Ctx& c, Tables& t) {
    for (std::size_t gi = 0; gi < c.inis.size(); ++gi) {
        Ini const& g = c.inis[gi];
        if (!g.is_group) continue;
        Rng r = Rng::stream(c.opt.seed, 7, gi);
        int orden = 0;
        for (int ci : g.comps) {
            Ini const& x = c.inis[static_cast<std::size_t>(ci)];
            t.grupos_iniciativas.set("portfolio_id", g.pid).set("portfolio_id_componente", x.pid).set("nombre_grupo", g.nombre)
                .set("nombre_componente", x.nombre).set("unidad_componente", kUnidades[x.unidad]).set("estado_componente", kEstados[x.estado].name)
                .money("importe_total_componente", sum_opt(x.importe)).set("orden", ++orden)
                .set("fecha_alta", clamp(max(g.alta, x.alta) + r.range(0, 60), max(g.alta, x.alta), kToday));
            t.grupos_iniciativas.insert();
        }
    }
}

// ───────────────────────────── parametros / etiquetas_destacadas ─────────────────────────────

struct ParamSpec {
    std::string nombre, tabla, columna;
    std::vector<std::string_view> canon;
    std::string_view descripcion;
};
template <class A>
std::vector<std::string_view> sv(A const& a) {
    return std::vector<std::string_view>(std::begin(a), std::end(a));
}

std::vector<ParamSpec> param_specs() {
    std::vector<std::string_view> estados, tipos, l2s, benef;
    for (auto const& e : kEstados) estados.push_back(e.name);
    for (auto const& tp : kTipos) tipos.push_back(tp.name);
    for (auto const& l : l2_table()) l2s.push_back(l.name);
    for (auto const& b : kTiposBeneficio) benef.push_back(b.name);
    std::vector<std::string_view> doc;
    for (auto const& d : doc_tipos()) doc.push_back(d.name);
    std::vector<std::string_view> ambitos;
    for (auto const& p : kPrefixes) ambitos.push_back(p.ambito);
    std::vector<ParamSpec> v = {
        {"estado_de_la_iniciativa", "datos_relevantes", "estado_de_la_iniciativa", estados, "Estado de la iniciativa en su ciclo de vida."},
        {"unidad", "datos_relevantes", "unidad", sv(kUnidades), "Unidad de negocio promotora."},
        {"cluster", "datos_relevantes", "cluster", sv(kClusters), "Agrupación de unidades de negocio."},
        {"tipo", "datos_relevantes", "tipo", tipos, "Tipo de iniciativa."},
        {"origen", "datos_relevantes", "origen", sv(kOrigenes), "Origen o motivación de la iniciativa."},
        {"digital_framework_level_1", "datos_relevantes", "digital_framework_level_1", sv(kL1), "Ámbito del marco digital (nivel 1)."},
        {"digital_framework_level_2", "datos_relevantes", "digital_framework_level_2", l2s, "Subámbito del marco digital (nivel 2)."},
        {"prioridad", "datos_relevantes", "prioridad", sv(kPrioridades), "Prioridad de la iniciativa."},
        {"alineacion_estrategica", "datos_relevantes", "alineacion_estrategica", sv(kAlineacion), "Grado de alineación con el plan estratégico."},
        {"capex_opex", "datos_relevantes", "capex_opex", sv(kCapexOpex), "Naturaleza contable del gasto."},
        {"cini", "datos_relevantes", "cini", sv(kCinis), "Código CINI de la inversión regulada."},
        {"ambito_geografico", "datos_relevantes", "ambito_geografico", ambitos, "Ámbito geográfico (prefijo del portfolio_id)."},
        {"riesgo", "datos_relevantes", "riesgo", sv(kRiesgos), "Nivel de riesgo calculado."},
        {"semaforo", "datos_relevantes", "semaforo", sv(kSemaforos), "Semáforo del último avance registrado."},
        {"referente_negocio", "datos_relevantes", "referente_negocio", {}, "Referente de negocio de la iniciativa."},
        {"referente_bi", "datos_relevantes", "referente_bi", {}, "Referente BI (Business Intelligence) asignado."},
        {"responsable_ti", "datos_relevantes", "responsable_ti", {}, "Responsable de Tecnología asignado."},
        {"proveedor_principal", "datos_relevantes", "proveedor_principal", sv(kProveedores), "Proveedor principal."},
        {"hechos.estado", "hechos", "estado", sv(kHechoEstados), "Estado de un hecho presupuestario."},
        {"hechos.calidad_estimacion", "hechos", "calidad_estimacion", sv(kCalidad), "Calidad de la estimación del importe."},
        {"acciones.estado", "acciones", "estado", sv(kAccionEstados), "Estado de una acción."},
        {"acciones.prioridad", "acciones", "prioridad", sv(kNivel3), "Prioridad de una acción."},
        {"documentos.estado", "documentos", "estado", sv(kDocEstados), "Estado del procesamiento del documento."},
        {"documentos.tipo_documento", "documentos", "tipo_documento", doc, "Tipo de documento."},
        {"etiquetas.etiqueta", "etiquetas", "etiqueta", sv(kEtiquetas), "Etiqueta asignable a una iniciativa."},
        {"notas.tipo_nota", "notas", "tipo_nota", sv(kTiposNota), "Tipo de nota."},
        {"dependencias.tipo_dependencia", "dependencias", "tipo_dependencia", sv(kTiposDependencia), "Tipo de dependencia."},
        {"dependencias.estado", "dependencias", "estado", sv(kEstadosDependencia), "Estado de la dependencia."},
        {"dependencias.criticidad", "dependencias", "criticidad", sv(kNivel3), "Criticidad de la dependencia."},
        {"beneficios.tipo_beneficio", "beneficios", "tipo_beneficio", benef, "Tipo de beneficio."},
        {"beneficios.estado", "beneficios", "estado", sv(kBenefEstados), "Estado del beneficio."},
        {"ltp.estado", "ltp", "estado", sv(kLtpEstados), "Estado de una línea de trabajo planificada."},
        {"datos_ejecucion.estado_hito", "datos_ejecucion", "estado_hito", sv(kHitoEstados), "Estado de un hito de ejecución."},
        {"avance.estado_semaforo", "avance", "estado_semaforo", sv(kSemaforos), "Semáforo de un registro de avance."},
        {"estado_especial.estado_especial", "estado_especial", "estado_especial", sv(kEstadosEspeciales), "Estado especial de una iniciativa."},
        {"investment_memos.estado_memo", "investment_memos", "estado_memo", sv(kMemoEstados), "Estado de un investment memo."},
        {"impacto_aatt.area_tecnica", "impacto_aatt", "area_tecnica", sv(kAreasTecnicas), "Área técnica impactada."},
        {"impacto_aatt.tipo_impacto", "impacto_aatt", "tipo_impacto", sv(kTiposImpacto), "Tipo de impacto."},
        {"impacto_aatt.nivel_impacto", "impacto_aatt", "nivel_impacto", sv(kRiesgos), "Nivel de impacto."},
        {"justificaciones.tipo_justificacion", "justificaciones", "tipo_justificacion", sv(kTiposJustificacion), "Tipo de justificación."},
        {"fichas.tipo_ficha", "fichas", "tipo_ficha", sv(kTiposFicha), "Tipo de ficha."},
        {"informacion_economica.clasificacion_regulatoria", "informacion_economica", "clasificacion_regulatoria", sv(kClasifReg), "Clasificación regulatoria de la inversión."},
        {"wbes.sociedad", "wbes", "sociedad", sv(kSociedades), "Sociedad del grupo titular de la WBE."},
        {"wbes.estado_wbe", "wbes", "estado_wbe", sv(kWbeEstados), "Estado de la WBE."},
    };
    return v;
}

void insert_parametros(Db& db, Tables& t) {
    for (auto const& p : param_specs()) {
        Stmt st(db.get(), cat("SELECT DISTINCT ", p.columna, " FROM ", p.tabla, " WHERE ", p.columna, " IS NOT NULL"));
        std::vector<std::string> vals;
        int rc;
        while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
            auto const* txt = reinterpret_cast<char const*>(sqlite3_column_text(st.get(), 0));
            vals.emplace_back(txt ? txt : "");
        }
        if (rc != SQLITE_DONE) throw std::runtime_error(cat("SQLite error reading values of ", p.nombre, ": ", sqlite3_errmsg(db.get())));
        auto rank = [&](std::string const& v) -> std::size_t {
            auto it = std::find(p.canon.begin(), p.canon.end(), std::string_view(v));
            return it == p.canon.end() ? p.canon.size() : static_cast<std::size_t>(it - p.canon.begin());
        };
        std::sort(vals.begin(), vals.end(), [&](std::string const& a, std::string const& b) {
            std::size_t const ra = rank(a), rb = rank(b);
            if (ra != rb) return ra < rb;
            std::string const ka = sort_key(a), kb = sort_key(b);
            if (ka != kb) return ka < kb;
            return a < b;
        });
        int orden = 0;
        for (auto const& v : vals) {
            std::string_view desc = p.descripcion;
            if (p.nombre == "estado_de_la_iniciativa")
                for (auto const& e : kEstados)
                    if (e.name == v) desc = e.descripcion;
            t.parametros.set("nombre_parametro", p.nombre).set("valor", v).set("orden", ++orden).set("descripcion", desc);
            t.parametros.insert();
        }
    }
}

void insert_destacadas(Tables& t) {
    int orden = 0;
    for (auto const& d : kDestacadas) {
        ++orden;
        t.etiquetas_destacadas.set("etiqueta", d.etiqueta).set("color", d.color).set("descripcion", d.descripcion).set("orden", orden)
            .set("fecha_creacion", Date::ymd(2024, 1, 15) + 21 * orden);
        t.etiquetas_destacadas.insert();
    }
}

void create_indexes(Db& db, Tables& t) {
    for (Table* tb : t.all()) {
        if (!tb->has_portfolio_id()) continue;
        bool const unique = tb == &t.datos_relevantes || tb == &t.iniciativas || tb == &t.datos_descriptivos || tb == &t.informacion_economica;
        db.exec(cat(unique ? "CREATE UNIQUE INDEX ux_" : "CREATE INDEX ix_", tb->name(), "_portfolio_id ON ", tb->name(), "(portfolio_id)"));
    }
    db.exec("CREATE INDEX ix_datos_relevantes_estado ON datos_relevantes(estado_de_la_iniciativa)");
    db.exec("CREATE INDEX ix_datos_relevantes_unidad ON datos_relevantes(unidad)");
    db.exec("CREATE INDEX ix_documentos_items_documento_id ON documentos_items(documento_id)");
    db.exec("CREATE INDEX ix_grupos_iniciativas_componente ON grupos_iniciativas(portfolio_id_componente)");
    db.exec("CREATE INDEX ix_dependencias_relacionado ON dependencias(portfolio_id_relacionado)");
    db.exec("CREATE INDEX ix_parametros_nombre ON parametros(nombre_parametro, orden)");
}

struct TmpFileGuard {
    std::filesystem::path path;
    bool keep = false;
    ~TmpFileGuard() {
        if (keep) return;
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::remove(std::filesystem::path(path.string() + "-journal"), ec);
    }
};

} // namespace

generator_report generate_database(std::filesystem::path const& path, generator_options const& options) {
    namespace fs = std::filesystem;
    if (options.initiatives < 1 || options.initiatives > 100000)
        throw std::runtime_error(cat("invalid number of initiatives ", options.initiatives, " (valid range 1..100000)"));
    if (path.empty()) throw std::runtime_error("empty database path");
    std::error_code ec;
    fs::path const parent = path.parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        throw std::runtime_error("cannot create database '" + path.string() + "': directory '" + parent.string() + "' does not exist");
    if (fs::is_directory(path, ec)) throw std::runtime_error("cannot create database '" + path.string() + "': it is a directory");
    fs::path const tmp(path.string() + ".tmp");
    fs::remove(tmp, ec);
    fs::remove(fs::path(tmp.string() + "-journal"), ec);
    TmpFileGuard guard{tmp};

    generator_report report;
    report.initiatives = options.initiatives;
    {
        Db db;
        db.open(tmp.string());
        db.exec("PRAGMA page_size=4096");
        db.exec("PRAGMA journal_mode=OFF");
        db.exec("PRAGMA synchronous=OFF");
        db.exec("PRAGMA cache_size=-65536");
        // VACUUM's temporary copy: RAM for small databases, a temp file for big ones (output bytes are identical)
        db.exec(options.initiatives <= 20000 ? "PRAGMA temp_store=MEMORY" : "PRAGMA temp_store=FILE");
        db.exec("PRAGMA encoding='UTF-8'");
        db.exec("PRAGMA user_version=1");
        {
            auto tables = std::make_unique<Tables>();
            Tables& t = *tables;
            for (Table* tb : t.all()) db.exec(tb->create_sql());
            for (Table* tb : t.all()) tb->prepare(db.get());
            db.exec("BEGIN");

            auto ctx = std::make_unique<Ctx>();
            Ctx& c = *ctx;
            c.opt = options;
            c.people = make_people(options.seed);
            assign_ids(c);
            for (std::size_t i = 0; i < c.inis.size(); ++i) {
                Rng r = Rng::stream(options.seed, P_BASE, i);
                gen_base(c, c.inis[i], r);
            }
            form_groups(c);
            for (auto& x : c.inis)
                if (x.is_group) { x.obj = 0; x.ctx = 0; x.verb = 0; x.generic_ctx = true; }
            for (std::size_t i = 0; i < c.inis.size(); ++i) gen_children(c, t, i);
            for (auto& x : c.inis)
                if (x.is_group) aggregate_group(c, x);
            for (std::size_t i = 0; i < c.inis.size(); ++i) insert_one_to_one(c, t, i);
            insert_grupos(c, t);
            insert_destacadas(t);
            insert_parametros(db, t);
            create_indexes(db, t);
            db.exec("COMMIT");
            for (Table* tb : t.all()) report.rows_per_table[tb->name()] = tb->rows();
        }   // statements finalized here
        db.exec("VACUUM");   // compact, contiguous tables; uses a temporary file, not RAM
        db.close();
    }
    fs::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot move '" + tmp.string() + "' to '" + path.string() + "': " + ec.message());
    guard.keep = true;
    return report;
}

} // namespace portfolio
