/// A rendition's identity within its playlist: names are unique within a group of a type.
struct RenditionName: Hashable {
    var type: RenditionType
    var group: String
    var name: String
}
