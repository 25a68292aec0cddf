@preconcurrency import Glibc
import Foundation

/// nginx serving a folder on 127.0.0.1: the origin benchmarks measure against or fetch from.
enum StaticSite {
    /// Starts nginx on a free loopback port serving `root`, its configuration, pid and logs in `folder`;
    /// returns once it accepts connections. The caller stops it.
    static func serve(_ root: URL, from folder: URL) throws -> (server: ServerProcess, port: UInt16) {
        let port = try freeLoopbackPort()
        let configuration = try writeConfiguration(port: port, root: root, folder: folder)
        let nginx = try ServerProcess(
            "nginx", executable: try BenchmarkContext.executable("nginx", package: "nginx"),
            // -e: nginx opens its compiled-in error log before it reads the configuration; keep it here too.
            ["-p", folder.path, "-e", folder.appendingPathComponent("nginx.err.log").path, "-c", configuration.path],
            logsIn: folder)
        do {
            try nginx.wait(upTo: 10, for: "listening on port \(port)") { acceptsConnections(port: port) }
        } catch {
            nginx.stop()
            throw error
        }
        return (nginx, port)
    }

    /// A configuration that keeps everything of nginx's in the work folder (pid, logs, temporary files)
    /// and serves `root` on 127.0.0.1 only; the machine's /etc/nginx and its service are never touched.
    private static func writeConfiguration(port: UInt16, root: URL, folder: URL) throws -> URL {
        let temporary = folder.appendingPathComponent("nginx-temp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        // As root, nginx's workers would run as nobody, who cannot enter a work folder under /root.
        let user = getuid() == 0 ? "user root root;\n" : ""
        let text = """
            \(user)daemon off;
            worker_processes auto;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/nginx.err.log warn;
            events {
                worker_connections 1024;
            }
            http {
                access_log off;
                client_body_temp_path \(temporary.path)/client;
                proxy_temp_path \(temporary.path)/proxy;
                fastcgi_temp_path \(temporary.path)/fastcgi;
                uwsgi_temp_path \(temporary.path)/uwsgi;
                scgi_temp_path \(temporary.path)/scgi;
                types {
                    application/vnd.apple.mpegurl m3u8;
                    video/mp2t ts;
                    video/iso.segment m4s;
                    video/mp4 mp4;
                    text/x-apple-plist+xml plist;
                }
                default_type application/octet-stream;
                sendfile on;
                # nginx closes a keep-alive connection after 1000 requests by default; libmicrohttpd never
                # does. Without this wrk would measure nginx's reconnections too.
                keepalive_requests 10000000;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                }
            }

            """
        let file = folder.appendingPathComponent("nginx.conf")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
