import Foundation
import HTTP
import SenderProtocol

/// A picture as every route that serves one answers it: a console's tiles and focus view (`airlabd`'s
/// and `airlab console`'s) and a receiver's `GET /picture`, so that a picture passed on from one to
/// the other reads the same.
public enum ConsolePicture {
    /// The JPEG, never cached (the playhead moves), with the interstitial event a switch's picture is of.
    public static func jpeg(_ data: Data, of eventID: String? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: ["Content-Type": "image/jpeg", "Cache-Control": "no-store"], body: data)
        if let eventID { response.headers.set(SenderEvent.eventHeader, eventID) }
        return response
    }

    /// A 404 saying why there is no picture, in a sentence that names no URL or path.
    public static func none(_ reason: String) -> HTTPResponse {
        HTTPResponse(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"], body: Data("no picture: \(reason)\n".utf8))
    }

    /// The receiver a frame's file name (`N.jpg` in `/console/frames/N.jpg`) is of; nil when it names none.
    public static func receiver(ofFrame name: String) -> Int? {
        name.hasSuffix(".jpg") ? Int(name.dropLast(4)) : nil
    }

    /// The 404 for a frame name that is not one of the console's receivers: it says how frames are named.
    public static let noSuchFrame = HTTPResponse.text("no picture: frames are /console/frames/N.jpg for a receiver N\n", status: 404)
}
