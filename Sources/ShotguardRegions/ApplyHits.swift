// Applies resolved rules to an image that shows a known rectangle of the screen.
import ShotguardImaging
import ShotguardScreen

extension PixelBuffer {
    /// Redacts `hits` (in screen coordinates) on an image whose pixels show `origin` on
    /// screen. Returns the hits in image coordinates (for reports).
    @discardableResult
    public mutating func redact(_ hits: [RegionHit], origin: Rect) -> [RegionHit] {
        let placed = hits.translated(toImageAt: origin)
        for hit in placed { redact(hit.rect, with: hit.fill) }
        return placed
    }

    /// Redacts every hit of `regions` resolved against `context` (see `redact(_:origin:)`).
    @discardableResult
    public mutating func redact(_ regions: RegionsFile, context: ScreenContext, origin: Rect) -> [RegionHit] {
        redact(regions.hits(against: context), origin: origin)
    }
}

extension PixelRows {
    /// Redacts `hits` (in screen coordinates) on rows showing `origin` on screen, in place.
    @discardableResult
    public func redact(_ hits: [RegionHit], origin: Rect) -> [RegionHit] {
        let placed = hits.translated(toImageAt: origin)
        for hit in placed { redact(hit.rect, with: hit.fill) }
        return placed
    }

    /// Redacts every hit of `regions` resolved against `context` (see `redact(_:origin:)`).
    @discardableResult
    public func redact(_ regions: RegionsFile, context: ScreenContext, origin: Rect) -> [RegionHit] {
        redact(regions.hits(against: context), origin: origin)
    }
}
