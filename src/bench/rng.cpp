#include "forge/bench/rng.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>

namespace forge::bench {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

// [0, 1) from a draw's top 53 bits.
constexpr double unit_interval(std::uint64_t bits) noexcept { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// The ziggurat's layers under the standard normal's density (unnormalised,
// exp(-x^2/2)): 128 of equal area `area`, the base layer's rectangle reaching
// x[0] = area / f(r) to take in the tail beyond r. Built once, from the
// constants Doornik gives for 128 layers.
struct Ziggurat {
    static constexpr std::size_t layers = 128;
    static constexpr double r = 3.442619855899;
    static constexpr double area = 9.91256303526217e-3;

    std::array<double, layers + 1> x{};  // each layer's right edge; x[layers] = 0
    std::array<double, layers> inner{};  // x[i + 1] / x[i]: below it, a draw is inside the curve

    Ziggurat() noexcept {
        double f = std::exp(-0.5 * r * r);
        x[0] = area / f;
        x[1] = r;
        for (std::size_t i = 2; i < layers; ++i) {
            x[i] = std::sqrt(-2.0 * std::log(area / x[i - 1] + f));
            f = std::exp(-0.5 * x[i] * x[i]);
        }
        x[layers] = 0.0;
        for (std::size_t i = 0; i < layers; ++i) inner[i] = x[i + 1] / x[i];
    }
};

const Ziggurat& ziggurat() noexcept {
    static const Ziggurat built;
    return built;
}

// The generator itself, xoshiro256**, on a copy of an Rng's state (Drawing):
// a fill keeps it in registers across the whole tensor, where calling the Rng's
// own members for each element cost a call and the state's loads and stores,
// and inlines the ziggurat's common case (docs/lab/README.md, "Drawing inputs
// in registers"). Its draws are the ones the members always made.
struct Xoshiro {
    std::uint64_t s[4];

    std::uint64_t next() noexcept {
        const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
        const std::uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }

    double uniform() noexcept { return unit_interval(next()); }

    // Ziggurat (Marsaglia and Tsang 2000, as Doornik's ZIGNOR 2005 draws it: the
    // layer from bits apart from the abscissa's). Drawing a fresh round's inputs is
    // mostly this: Box-Muller's logarithm, sine and cosine cost 15-20 ns an
    // element, where the ziggurat's 99% case is a multiply and a compare, kept
    // small enough to inline into a fill; the rest is out of line.
    double normal(const Ziggurat& z) noexcept {
        const std::uint64_t bits = next();
        const auto layer = static_cast<std::size_t>(bits & (Ziggurat::layers - 1));
        const double u = 2.0 * unit_interval(bits) - 1.0;  // [-1, 1), from other bits than the layer
        if (std::abs(u) < z.inner[layer]) [[likely]]
            return u * z.x[layer];
        return outside_rectangle(z, layer, u);
    }

    // A draw past its layer's rectangle: the tail beyond r for the base layer,
    // else the wedge between the rectangle and the curve, or a new draw.
    [[gnu::noinline]] double outside_rectangle(const Ziggurat& z, std::size_t layer, double u) noexcept {
        if (layer == 0) return tail(u);
        const double x = u * z.x[layer];
        const double below = std::exp(-0.5 * (z.x[layer] * z.x[layer] - x * x));
        const double above = std::exp(-0.5 * (z.x[layer + 1] * z.x[layer + 1] - x * x));
        if (above + uniform() * (below - above) < 1.0) return x;
        return normal(z);
    }

    // Past the base layer's edge: Marsaglia's tail beyond r, on the side of u.
    // 1 - uniform() keeps logarithms finite.
    double tail(double u) noexcept {
        double x = 0.0;
        double y = 0.0;
        do {
            x = std::log(1.0 - uniform()) / Ziggurat::r;
            y = std::log(1.0 - uniform());
        } while (-2.0 * y < x * x);
        return u < 0.0 ? x - Ziggurat::r : Ziggurat::r - x;
    }
};

// A copy of an Rng's state for one draw or one fill, put back when it ends.
class Drawing {
public:
    explicit Drawing(std::uint64_t (&state)[4]) noexcept
        : stream{{state[0], state[1], state[2], state[3]}}, state_(state) {}
    Drawing(const Drawing&) = delete;
    Drawing& operator=(const Drawing&) = delete;
    ~Drawing() { std::copy(std::begin(stream.s), std::end(stream.s), std::begin(state_)); }

    Xoshiro stream;

private:
    std::uint64_t (&state_)[4];
};

template <class T, class Convert, class Draw>
void fill(Tensor& tensor, Convert convert, Draw draw) {
    for (T& element : tensor.span<T>()) element = convert(draw());
}

// Fills a floating tensor with draw(), rounded to its dtype.
template <class Draw>
void fill_floating(Tensor& tensor, Draw draw) {
    switch (tensor.dtype()) {
        case DType::fp64: return fill<double>(tensor, [](double v) { return v; }, draw);
        case DType::fp32: return fill<float>(tensor, [](double v) { return static_cast<float>(v); }, draw);
        case DType::fp16:
            return fill<float16>(tensor, [](double v) { return to_float16(static_cast<float>(v)); }, draw);
        case DType::bf16:
            return fill<bfloat16>(tensor, [](double v) { return to_bfloat16(static_cast<float>(v)); }, draw);
        default: break;
    }
    throw BenchError("tensor '" + tensor.name() + "' is " + std::string(to_string(tensor.dtype())) +
                     ": fill it with Rng::integers, not a floating distribution");
}

template <class T>
T narrow(std::int64_t v) {
    return static_cast<T>(v);
}

template <class Draw>
void fill_integer(Tensor& tensor, Draw draw) {
    switch (tensor.dtype()) {
        case DType::i64: return fill<std::int64_t>(tensor, narrow<std::int64_t>, draw);
        case DType::i32: return fill<std::int32_t>(tensor, narrow<std::int32_t>, draw);
        case DType::i16: return fill<std::int16_t>(tensor, narrow<std::int16_t>, draw);
        case DType::i8: return fill<std::int8_t>(tensor, narrow<std::int8_t>, draw);
        case DType::u8: return fill<std::uint8_t>(tensor, narrow<std::uint8_t>, draw);
        case DType::boolean: return fill<bool>(tensor, [](std::int64_t v) { return v != 0; }, draw);
        default: break;
    }
    throw BenchError("tensor '" + tensor.name() + "' is " + std::string(to_string(tensor.dtype())) +
                     ": fill it with Rng::uniform or Rng::normal, not integers");
}

}  // namespace

Rng::Rng(std::uint64_t seed) noexcept {
    for (std::uint64_t& word : state_) word = splitmix64(seed);
}

std::uint64_t Rng::next() noexcept { return Drawing(state_).stream.next(); }

double Rng::uniform() noexcept { return Drawing(state_).stream.uniform(); }

double Rng::normal() noexcept { return Drawing(state_).stream.normal(ziggurat()); }

void Rng::uniform(Tensor& tensor, double low, double high) {
    Drawing drawing(state_);
    fill_floating(tensor, [&] { return low + (high - low) * drawing.stream.uniform(); });
}

void Rng::normal(Tensor& tensor, double mean, double stddev) {
    const Ziggurat& z = ziggurat();
    Drawing drawing(state_);
    fill_floating(tensor, [&] { return mean + stddev * drawing.stream.normal(z); });
}

void Rng::integers(Tensor& tensor, std::int64_t low, std::int64_t high) {
    if (high < low) {
        throw BenchError("Rng::integers for tensor '" + tensor.name() + "': the range [" + std::to_string(low) +
                         ", " + std::to_string(high) + "] is empty");
    }
    const auto span = static_cast<std::uint64_t>(high - low) + 1;  // 0 when the range is all of int64
    Drawing drawing(state_);
    fill_integer(tensor, [&] {
        const std::uint64_t draw = span == 0 ? drawing.stream.next() : drawing.stream.next() % span;
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + draw);
    });
}

}  // namespace forge::bench
