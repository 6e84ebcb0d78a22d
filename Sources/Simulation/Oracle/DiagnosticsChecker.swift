import SimKernel

/// The check that reads what the diagnostics upload did against the device's ground
/// truth (docs/architecture.md, "Adding a feature, counted again"): handed the host and
/// the core, it only reads them.
extension DiagnosticsHost {
    /// An upload goes out: under a spec that requires external power, the phone must be
    /// on its charger now (the battery model's truth), whatever the logic asked the OS for
    /// (`diagnosticsUploadedOffPower`).
    func observeUploadSent(_ i: Int, core: borrowing WorldCore) {
        guard core.oracle.watching, logic.spec.requiresExternalPower else { return }
        let plugged = core.devices[i].battery.charging
        core.verify(plugged, .diagnosticsUploadedOffPower, device: i, time: core.now,
                    detail: plugged ? nil : "diagnostics upload sent on battery at \(core.format(core.now)); the spec requires external power")
    }
}

// The diagnostics upload's rule: a static member (``ViolationKind``) and its list.
extension ViolationKind {
    /// A diagnostics upload sent while the phone was not on external power, under a spec
    /// that requires it (the nightly upload runs on the charger only).
    public static var diagnosticsUploadedOffPower: ViolationKind { .rule() }
}

extension DiagnosticsFeature {
    /// Its rules, in the order report.json lists them (``FeatureList/rules``).
    static let rules: [ViolationKind] = [.diagnosticsUploadedOffPower]
}
