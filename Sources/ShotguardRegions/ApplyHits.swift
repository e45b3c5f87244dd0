// Applies resolved rules to an image that shows a known rectangle of the screen.
import ShotguardImaging

extension PixelBuffer {
    /// Redacts every hit of `regions` resolved against `context`, for an image whose pixels
    /// show `origin` on screen. Returns the hits in image coordinates (for reports).
    @discardableResult
    public mutating func redact(_ regions: RegionsFile, context: ScreenContext, origin: Rect) -> [RegionHit] {
        let hits = regions.hits(against: context).translated(toImageAt: origin)
        for hit in hits { redact(hit.rect, with: hit.fill) }
        return hits
    }
}
