// Adds the accessible fields that the regions file's `field` rules need to a screen context.
import ShotguardAccessibility
import ShotguardRegions
import ShotguardScreen

enum LiveFields {
    /// `context` with the fields of the roles `regions` asks for. Without an accessibility bus
    /// the field rules hit nothing; unless `quiet`, stderr says so once, and how to enable it.
    static func attach(to context: inout ScreenContext, regions: RegionsFile, quiet: Bool = false) {
        context.fields = FieldQuery.fields(roles: regions.fieldRoles)
        if !quiet, case .unavailable(let reason) = context.fields {
            Console.error("shotguard: \(reason)\n")
        }
    }
}
