import CAvahi

// avahi takes plain C function pointers: these free functions capture nothing and find their object
// through the userdata pointer. The object outlives the avahi object that calls back (the publisher
// frees its client and groups before it goes), so the pointer is unretained.

func publisherClientChanged(_ client: OpaquePointer?, _ state: AvahiClientState, _ userdata: UnsafeMutableRawPointer?) {
    guard let client, let userdata else { return }
    Unmanaged<ServicePublisher>.fromOpaque(userdata).takeUnretainedValue().clientChanged(client, to: state)
}

func registrationGroupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState, _ userdata: UnsafeMutableRawPointer?) {
    guard let group, let userdata else { return }
    let registration = Unmanaged<ServiceRegistration>.fromOpaque(userdata).takeUnretainedValue()
    registration.groupChanged(group, to: state)
    registration.publisher.refreshSnapshot()
}

func browseSessionBrowserEvent(
    _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ protocol: AvahiProtocol, _ event: AvahiBrowserEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
    guard let browser, let userdata else { return }
    Unmanaged<BrowseSession>.fromOpaque(userdata).takeUnretainedValue().browserEvent(
        browser, interface: interface, protocol: `protocol`, event: event,
        name: name.map { String(cString: $0) } ?? "", type: type.map { String(cString: $0) } ?? "",
        domain: domain.map { String(cString: $0) } ?? "")
}

func browseSessionResolverEvent(
    _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ protocol: AvahiProtocol, _ event: AvahiResolverEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ hostName: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
    _ txt: UnsafeMutablePointer<AvahiStringList>?, _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
    guard let resolver, let userdata else { return }
    var found: DiscoveredService?
    var isIPv4 = false
    if event == AVAHI_RESOLVER_FOUND, let name, let type, let domain, let address {
        var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&text, text.count, address)
        let printed = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        isIPv4 = Int(address.pointee.proto) == AVAHI_PROTO_INET
        found = DiscoveredService(
            name: String(cString: name), type: String(cString: type), domain: String(cString: domain),
            hostName: hostName.map { String(cString: $0) } ?? "", address: String(decoding: printed, as: UTF8.self), port: port,
            txt: TXTStringList.dictionary(txt))
    }
    Unmanaged<BrowseSession>.fromOpaque(userdata).takeUnretainedValue().resolverEvent(
        resolver, event: event, found: found, isIPv4: isIPv4)
}
