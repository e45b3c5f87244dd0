// Estimates the libjpeg quality setting a JPEG was written with, from its quantisation tables.

public enum JPEGQuality {
    /// The quality used when a JPEG's tables do not say (no DQT, or tables of another encoder).
    public static let fallback = 90

    /// The IJG luminance table (JPEG Annex K) in zig-zag order, which libjpeg scales by quality.
    private static let standardLuminance: [Int] = [
        16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37,
        29, 40, 58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87,
        95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
    ]

    /// The libjpeg quality 1-100 whose scaled luminance table is nearest the file's table 0
    /// (sum of absolute differences), or nil when the file has no table 0. Tools built on
    /// libjpeg (scrot, ImageMagick, GIMP) write exactly these tables, so their quality comes
    /// back exactly; for other encoders it is the nearest match.
    public static func estimate(_ bytes: [UInt8]) -> Int? {
        guard let table = bytes.withUnsafeBytes({ JPEGMarkers.quantisationTables($0) })[0] else { return nil }
        var best = (quality: fallback, distance: Int.max)
        for quality in 1...100 {
            let scale = quality < 50 ? 5000 / quality : 200 - quality * 2
            var distance = 0
            for (index, base) in standardLuminance.enumerated() {
                let scaled = min(255, max(1, (base * scale + 50) / 100))
                distance += abs(scaled - table[index])
            }
            if distance < best.distance { best = (quality, distance) }
        }
        return best.quality
    }
}
