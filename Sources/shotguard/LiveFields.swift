// Adds the accessible fields that the regions file's `field` rules need to a screen context.
import ShotguardAccessibility
import ShotguardRegions
import ShotguardScreen
import ShotguardX11

enum LiveFields {
    /// `context` with the fields of the roles `regions` asks for. Without an accessibility bus
    /// the field rules hit nothing; unless `quiet`, stderr says so once, and how to enable it.
    /// No session bus is started for the query (it would outlive the command): a session
    /// without one, whose display advertises none, has no fields.
    static func attach(to context: inout ScreenContext, regions: RegionsFile, display: Display, quiet: Bool = false) {
        let roles = regions.fieldRoles
        context.fields = FieldQuery.fields(roles: roles, displayAdvertisesBus: roles.isEmpty ? nil : display.advertisesSessionBus())
        if !quiet, case .unavailable(let reason) = context.fields {
            Console.error("shotguard: \(reason)\n")
        }
    }
}
