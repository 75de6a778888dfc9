// A call the harness refused, in words that already name the side's call ("the
// student's call asked for input 'x' ..."): the run names the side itself only
// where the message cannot (a tensor's own errors know no side).
#pragma once

#include "forge/bench/tensor.hpp"

namespace forge::bench {

struct SideCallError : BenchError {
    using BenchError::BenchError;
};

}  // namespace forge::bench
