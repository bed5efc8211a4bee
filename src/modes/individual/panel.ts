/**
 * The `individual` tracker's panel in the glance strip (RULES.md §2): the initiative groups and the
 * ties waiting for a roll-off; and the set-up buttons (roll all, start, start with surprise).
 */
import type { ControlContext } from "../../core/ui";
import type { ModeInput } from "../contract";
import { groupMembers, pendingRollOffs } from "./rules/derived";
import type { IndividualState } from "./rules/types";

/** An initiative group in the glance strip. */
export interface GroupContext {
  readonly id: string;
  readonly members: string;
  readonly initiative: string;
  readonly rolled: boolean;
  readonly controls: readonly ControlContext[];
}

/** A tie waiting for a roll-off. */
export interface RollOffContext {
  readonly names: string;
  readonly controls: readonly ControlContext[];
}

/** The `individual` panel of the glance strip: ties to roll off and initiative groups. */
export interface IndividualPanelContext {
  readonly groups: readonly GroupContext[];
  /** The GM may put NPCs into groups now (shows the group name input). */
  readonly canGroup: boolean;
  readonly rollOffs: readonly RollOffContext[];
}

/** The set-up buttons and the panel. */
export function individualPanel({ state, allowed, nameOf, control }: ModeInput<IndividualState>): {
  setupControls: ControlContext[];
  panel: IndividualPanelContext;
} {
  const setupControls: ControlContext[] = [];
  const rollable = allowed.combatants("recordInitiative");
  const groups = [...new Set(state.combatants.flatMap((c) => (c.groupId === null ? [] : [c.groupId])))];
  const groupContexts = groups.map((groupId): GroupContext => {
    const members = groupMembers(state, groupId);
    const first = state.combatants.find((c) => c.id === members[0]);
    const rolled = first?.initiative !== null && first?.initiative !== undefined;
    const controls = allowed.forGroup(groupId, "recordGroupInitiative")
      ? [control({ action: "siRollGroup", label: "Roll", aria: "RollGroup", name: groupId, groupId, primary: true })]
      : [];
    return {
      id: groupId,
      members: members.map(nameOf).join(", "),
      initiative: rolled ? String(first.initiative) : "",
      rolled,
      controls,
    };
  });
  const groupRolls = groupContexts.filter((g) => g.controls.length > 0 && !g.rolled).length;
  if (rollable.filter((id) => state.combatants.find((c) => c.id === id)?.initiative === null).length + groupRolls > 1)
    setupControls.push(control({ action: "siRollAll", label: "RollAll" }));
  if (allowed.has("start")) {
    setupControls.push(control({ action: "siStart", label: "Start", primary: true }));
    if (state.combatants.some((c) => c.aware))
      setupControls.push(control({ action: "siStartSurprise", label: "StartSurprise" }));
  }
  const rollOffs: RollOffContext[] = [];
  for (const id of allowed.combatants("recordRollOff")) {
    const set = pendingRollOffs(state).find((ids) => ids[0] === id) ?? [id];
    rollOffs.push({
      names: set.map(nameOf).join(", "),
      controls: [
        control({ action: "siRollOff", label: "RollOff", aria: "RollOffFor", name: nameOf(id), combatantId: id }),
      ],
    });
  }
  const panel: IndividualPanelContext = {
    groups: groupContexts,
    canGroup: state.combatants.some((c) => allowed.for(c.id, "setGroup")),
    rollOffs,
  };
  return { setupControls, panel };
}
