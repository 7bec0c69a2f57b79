// The staged bound of a placement problem (docs/spec-language.md, "Staged bounds"): the
// functions the skeletons compare with their incumbent, the same for every spec. This
// part follows the generated problem source (generator/generate.cpp lists it in
// ProblemSource::templates), inside its namespace, and reads what that source
// defines: kGoal, kStages, bound(), refine(), AssignStart and kAssignStart, and with
// kAssignStart refine_from<true>() (generator/emit_branch.cpp, emit_refine).
namespace problem {

// A bound's type: int, or Int where the spec's ints are 64-bit.
using BoundInt = decltype(bound(*static_cast<const Node*>(nullptr)));

// The bound of a child whose bound() (`cheap`) does not prune it: the tighter of cheap
// and refine(s, cheap). Skeletons that choose among children on their cheap bounds first
// (two ends) call it on the survivors.
PJ_HD BoundInt refined_bound(const Node& s, BoundInt cheap) {
  if (kStages == 1) return cheap;
  const BoundInt r = refine(s, cheap);
  return pj::tighter<kGoal>(cheap, r);
}

// Declared, never defined: where refine() solves no assign(), the generated source has
// no refine_from, and this declaration lets refined_bound below name it in the branch
// that is then never compiled. Where it has one, that one is chosen (its pointers'
// type is exact, so it is the more specialised).
template <bool kStarted, class Start>
PJ_HD BoundInt refine_from(const Node& s, BoundInt bound, const Start* from, Start* to);

// The same, its assign() started from `from` and leaving the node's in `to` (kAssignStart;
// else refined_bound(s, cheap)). A template: compiled only where a skeleton calls it.
template <class Start>
PJ_HD BoundInt refined_bound(const Node& s, BoundInt cheap, const Start* from, Start* to) {
  if constexpr (kAssignStart) {  // then kStages is 2 (generator/assign_start.hpp)
    const BoundInt r = refine_from<true>(s, cheap, from, to);
    return pj::tighter<kGoal>(cheap, r);
  } else {
    (void)from;
    (void)to;
    return refined_bound(s, cheap);
  }
}

// The bound that a skeleton compares with its incumbent `best`, given s's first bound
// `cheap` (bound(s), or child_bound from its parent): cheap when it prunes (or with one
// stage), else refined_bound(s, cheap). With `from` and `to`, refined_bound's other form:
// `to` is written only where the refinement is computed.
template <class Best>
PJ_HD BoundInt staged_bound_from(const Node& s, BoundInt cheap, Best best) {
  if (kStages == 1) return cheap;
  if (pj::prunes<kGoal>(cheap, best)) return cheap;
  return refined_bound(s, cheap);
}
template <class Best>
PJ_HD BoundInt staged_bound_from(const Node& s, BoundInt cheap, Best best, const AssignStart* from, AssignStart* to) {
  if (kStages == 1) return cheap;
  if (pj::prunes<kGoal>(cheap, best)) return cheap;
  return refined_bound(s, cheap, from, to);
}

// staged_bound_from(s, bound(s), best).
template <class Best>
PJ_HD BoundInt staged_bound(const Node& s, Best best) {
  return staged_bound_from(s, bound(s), best);
}

}  // namespace problem
