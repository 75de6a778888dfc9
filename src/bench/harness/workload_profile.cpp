#include "harness/workload_profile.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/call_checks.hpp"
#include "harness/swept_round.hpp"
#include "rules/kernel_sets.hpp"
#include "rules/page_faults.hpp"
#include "rules/profiled_calls.hpp"
#include "rules/round_schedule.hpp"
#include "runtime/kernel_calls.hpp"
#include "runtime/preemption.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

// One side's profiled calls so far: those the scheduler left alone (or all,
// where preempted ones are not retaken), and the preempted ones that make
// up the number when too few were.
struct ProfiledSide {
    std::size_t wanted = 0;
    bool retakes_preempted = true;  // as the rounds the ms columns come from set them aside
    std::size_t attempts = 0;  // preempted ones included; at most 4 x wanted
    std::vector<KernelTable> tables;
    std::vector<KernelTable> preempted;
    std::optional<std::set<std::string>> launched;  // the first profiled call's kernels
    std::vector<long> page_faults;                  // each attempt's, preempted ones included: a wait maps no memory

    [[nodiscard]] std::optional<long> median_page_faults() const {
        if (page_faults.empty()) return std::nullopt;
        std::vector<long> sorted = page_faults;
        const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
        std::nth_element(sorted.begin(), middle, sorted.end());
        return *middle;
    }

    [[nodiscard]] KernelTable table() const {
        std::vector<KernelTable> calls = tables;
        for (std::size_t i = 0; i < preempted.size() && calls.size() < wanted; ++i) calls.push_back(preempted[i]);
        return median_per_call(calls);
    }
};

// One problem per side and kind of untimed work, from the first profiled call that shows it.
void check_untimed_work(const SideState& state, Findings& findings, const Profile& profile) {
    for (UntimedWork& work : untimed_work(state.side, profile)) {
        if (findings.once(finding_key(state.side, "untimed work: " + std::string(work.kind)))) {
            findings.problem(work.problem);
        }
    }
}

// Calls, the sides alternating which goes first, until each side has its
// wanted undisturbed ones or has made 4x as many attempts.
void take_profiled_calls(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                         std::array<ProfiledSide, 2>& profiled) {
    for (std::size_t c = 0;; ++c) {
        bool took = false;
        const SweptRound swept(run.runtime);
        for (Side s : alternating_order(c)) {
            SideState& state = states[s];
            ProfiledSide& p = profiled[SideStates::index_of(state.side)];
            if (p.tables.size() >= p.wanted || p.attempts >= 4 * p.wanted) continue;
            took = true;
            ++p.attempts;
            // Variants alternate as in the rounds, so no call repeats its previous one's inputs.
            const int variant = static_cast<int>(p.attempts % input_variants);
            load(run.runtime, tensors, state, variant);
            swept.flush_caches(state);
            const SchedulerReading before = run.scheduler.read();
            const long faults_before = kernel::page_faults();
            const std::int64_t start = now_ns();
            Profile profile = run.runtime.profile_call([&] { call_side(run.bench, state, findings); },
                                                       "forge/" + side_name(state.side) + "/" + run.workload.name);
            if (const long faults_after = kernel::page_faults(); faults_before >= 0 && faults_after >= faults_before) {
                p.page_faults.push_back(faults_after - faults_before);
            }
            const bool was_preempted =
                preempted(before, run.scheduler.read(), static_cast<double>(now_ns() - start) * 1e-6);
            check_timed_outputs(run, tensors, state, findings, variant, {"profiled call ", p.attempts, ""});
            check_untimed_work(state, findings, profile);
            // A call the profiler could not read says nothing of the kernel set.
            if (profile.kernels.profiler && !p.launched) {
                p.launched = profile.launched;  // the samples are held to the first read call's
            } else if (profile.kernels.profiler) {
                // A profiled call unlike the first is a changed kernel set too.
                note_kernel_set(state.sample_kernels, KernelNames{std::move(profile.launched), true});
            }
            (was_preempted && p.retakes_preempted ? p.preempted : p.tables).push_back(std::move(profile.kernels));
        }
        if (!took) return;
    }
}

// Whether the contract prices work off this side: its credit then depends on
// its table reconciling with its timed median.
bool priced_side(const WindowContract& contract, Side s) {
    const std::vector<const Asymmetry*> priced = contract.priced_entries();
    return std::any_of(priced.begin(), priced.end(), [s](const Asymmetry* a) { return a->payer() == s; });
}

}  // namespace

// The table is each kernel's median per call, so one noisy call cannot move a
// credit. The calls are chosen as the rounds the ms columns come from were:
// where those left out rounds with a preempted call, a preempted profiled call
// is retaken (beside a busy neighbour two of three could be preempted, and their
// median then read well above the timed median); where they kept them all, so do
// the calls, whose regions leave out their waits as the rounds' readings do
// (beside a neighbour that never stops, retaking kept only the calls no neighbour
// evicted, well below the median). A side the contract prices takes more calls
// while its table does not reconcile with its timed median (ProfiledCallCount).
// The rule: docs/design/measurement.md ("Per-kernel tables"); the figures:
// docs/lab/README.md.
void profile_sides(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                   WorkloadRecord& result) {
    const ProfiledCallCount count;
    std::array<ProfiledSide, 2> profiled;
    for (ProfiledSide& p : profiled) {
        p.wanted = count.first;
        p.retakes_preempted = result.selection != RoundSelection::all;
    }
    take_profiled_calls(run, tensors, states, findings, profiled);
    for (;;) {
        bool more = false;
        for (const SideState& state : states) {
            ProfiledSide& p = profiled[SideStates::index_of(state.side)];
            if (!priced_side(run.contract, state.side) || p.attempts >= 4 * p.wanted) continue;
            const std::size_t wanted = count.wanted(p.table(), p.wanted, result.side(state.side).samples.median);
            more = more || wanted > p.wanted;
            p.wanted = std::max(p.wanted, wanted);
        }
        if (!more) break;
        take_profiled_calls(run, tensors, states, findings, profiled);
    }
    for (SideState& state : states) {
        const ProfiledSide& p = profiled[SideStates::index_of(state.side)];
        SideRecord& record = result.side(state.side);
        // A changed kernel set is flagged in eval.json (changed_kernel_set), not failed.
        if (!state.unlogged_samples && p.launched) {
            const std::optional<std::string> changed =
                changed_kernel_set(state.side, state.sample_kernels, *p.launched);
            if (changed) findings.notice(*changed);
            record.kernel_set_changed = changed.has_value();
        }
        record.kernels = p.table();
        record.page_faults = p.median_page_faults();
        if (record.page_faults && *record.page_faults >= many_page_faults) {
            findings.notice(page_faults_notice(state.side, *record.page_faults));
        }
    }
}

}  // namespace forge::bench
