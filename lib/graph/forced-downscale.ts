/**
 * Yaook's reserved downscale label, part of the manifest contract: a DaemonSet whose nodeSelector
 * carries it matches no node by design, so all its pods go (cold upgrades stop a whole service this
 * way). The model sets it and rejects it among user node labels; the runtime reads a DaemonSet with
 * no pods under this selector as deliberately empty, not stuck.
 */
export const FORCED_DOWNSCALE_LABEL = 'state.yaook.cloud/forced-downscale';
