"""Online play's ties to the browser: PeerJS (`net`: the seats' transports), libsodium's group
for the fair protocol (`sodium_group`) and the Web Locks API (`weblocks`)."""
