// SPDX-License-Identifier: MIT
// TEST-ONLY contracts for the local anvil chain in tests/support/chain.ts. Never deploy them anywhere real.
// Written for this project from the x402 `batch-settlement` EVM scheme specification and from the calls the
// @x402/evm package makes (its ABI, EIP-712 types and encodings); not a copy of the reference contracts.
pragma solidity ^0.8.28;

/// @dev The channel's immutable parameters; its EIP-712 hash is the channel id.
struct ChannelConfig {
    address payer;
    address payerAuthorizer; // EOA that signs vouchers, or zero: the payer signs (ECDSA or ERC-1271)
    address receiver;
    address receiverAuthorizer; // signs ClaimBatch and Refund authorizations
    address token;
    uint40 withdrawDelay;
    bytes32 salt;
}

struct Voucher {
    ChannelConfig channel;
    uint128 maxClaimableAmount;
}

/// @dev One row of a claim: a payer-signed voucher and the cumulative total the receiver side claims under it.
struct VoucherClaim {
    Voucher voucher;
    bytes signature;
    uint128 totalClaimed;
}

interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

interface IERC3009Receive {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external;
}

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @dev How the escrow asks a collector for a deposit: pull `amount` of `token` from `payer` under the
/// payer's authorization in `data` (bound to `channelId`), and hand it to the escrow before returning.
interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external;
}

/// @dev Signature checks shared by the escrow's vouchers, claim batches and refunds.
library Signatures {
    // secp256k1n / 2: only low-s signatures, so a signature has one valid encoding.
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;
    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;

    /// @dev The signer of a 65-byte (r, s, v) ECDSA signature, or zero when it is malformed or does not recover.
    function recover(bytes32 digest, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_N || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// @dev ECDSA for an account without code; ERC-1271 `isValidSignature` for a contract account.
    function isValidNow(address signer, bytes32 digest, bytes calldata signature) internal view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length == 0) return recover(digest, signature) == signer;
        (bool ok, bytes memory ret) = signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && ret.length >= 32 && bytes4(abi.decode(ret, (bytes32))) == ERC1271_MAGIC;
    }
}

/// @dev Token transfers that also accept tokens which return nothing instead of `true`, and pass on the
/// token's own revert reason.
library SafeTransfer {
    function transfer(address token, address to, uint256 amount) internal {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
        if (!ok) {
            assembly {
                revert(add(ret, 0x20), mload(ret))
            }
        }
        require(ret.length == 0 || abi.decode(ret, (bool)), "SafeTransfer: token transfer returned false");
    }
}

/// @notice Escrow of the x402 `batch-settlement` scheme: prepaid unidirectional payment channels. Payers deposit
/// once; receivers claim payer-signed cumulative vouchers in batches (accounting only) and `settle` sweeps what
/// was claimed to them in one transfer; unclaimed funds go back by cooperative refund or a timed withdrawal.
/// Only the RUNTIME bytecode is installed (anvil_setCode at the x402 SDK's canonical address), so there is no
/// constructor state: the EIP-712 domain separator is computed on every call from block.chainid and address(this).
contract x402BatchSettlement {
    struct Channel {
        uint128 balance; // deposited minus refunded and withdrawn
        uint128 totalClaimed; // cumulative, never decreases
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt; // zero: none pending
    }

    struct ReceiverTotals {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    /// @dev The x402 SDK's canonical ERC3009DepositCollector. The Permit2 collector is not supported here.
    address public constant ERC3009_DEPOSIT_COLLECTOR = 0x4020806089470a89826cB9fB1f4059150b550004;
    uint40 public constant MIN_WITHDRAW_DELAY = 15 minutes;
    uint40 public constant MAX_WITHDRAW_DELAY = 30 days;

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    // EIP-712: a referenced struct type's definition follows the primary type's.
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant VERSION_HASH = keccak256("1");

    mapping(bytes32 channelId => Channel) public channels;
    mapping(bytes32 channelId => PendingWithdrawal) public pendingWithdrawals;
    mapping(bytes32 channelId => uint256) public refundNonce;
    mapping(address receiver => mapping(address token => ReceiverTotals)) public receivers;

    // EIP-1153 transient storage: cleared at the end of every transaction, so no constructor is needed.
    bool private transient locked;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed collector, uint128 amount, uint128 balance);
    event Claimed(bytes32 indexed channelId, address indexed receiver, address indexed token, uint128 amount, uint128 totalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed payer, uint128 amount, uint256 nonce);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint256 finalizableAt);
    event Withdrawn(bytes32 indexed channelId, address indexed payer, uint128 amount);

    modifier nonReentrant() {
        require(!locked, "x402BatchSettlement: reentrant call");
        locked = true;
        _;
        locked = false;
    }

    // ----------------------------------------------------------------------------------------------------------
    // EIP-712

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(EIP712_DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    function _typedDataDigest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// @notice The channel id: the EIP-712 digest of the config (so it is bound to this chain and this escrow).
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        // Every field is a static type, so abi.encode lays the struct out exactly as EIP-712's encodeData.
        return _typedDataDigest(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDataDigest(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDataDigest(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    /// @notice EIP-712 digest of ClaimBatch{claims: ClaimEntry(channelId, maxClaimableAmount, totalClaimed)[]}.
    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        // An array is encoded as the hash of its elements' struct hashes, concatenated.
        bytes32[] memory entryHashes = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            VoucherClaim calldata c = voucherClaims[i];
            entryHashes[i] = keccak256(
                abi.encode(CLAIM_ENTRY_TYPEHASH, getChannelId(c.voucher.channel), c.voucher.maxClaimableAmount, c.totalClaimed)
            );
        }
        return _typedDataDigest(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entryHashes)))));
    }

    // ----------------------------------------------------------------------------------------------------------
    // Deposit

    /// @notice Funds the channel of `config` with `amount`, pulled from the payer by `collector` under the
    /// payer's authorization in `collectorData`. The first funding of an empty channel creates it.
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        require(amount > 0, "x402BatchSettlement: zero amount");
        require(config.payer != address(0), "x402BatchSettlement: zero payer");
        require(config.receiver != address(0), "x402BatchSettlement: zero receiver");
        require(config.receiverAuthorizer != address(0), "x402BatchSettlement: zero receiver authorizer");
        require(config.token != address(0), "x402BatchSettlement: zero token");
        require(
            config.withdrawDelay >= MIN_WITHDRAW_DELAY && config.withdrawDelay <= MAX_WITHDRAW_DELAY,
            "x402BatchSettlement: withdraw delay out of range"
        );
        require(collector == ERC3009_DEPOSIT_COLLECTOR, "x402BatchSettlement: unsupported collector");

        bytes32 channelId = getChannelId(config);
        // Trust the token's balance, not the collector's word: the escrow must hold exactly `amount` more.
        uint256 held = IERC20Minimal(config.token).balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        require(
            IERC20Minimal(config.token).balanceOf(address(this)) == held + amount,
            "x402BatchSettlement: deposit not received"
        );

        Channel storage channel = channels[channelId];
        // balance >= totalClaimed always, so a zero balance means nothing claimed either: an empty channel.
        if (channel.balance == 0) emit ChannelCreated(channelId, config);
        channel.balance += amount;
        emit Deposited(channelId, collector, amount, channel.balance);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Claim and settle

    /// @notice Claims vouchers; the caller must be the receiver or the receiver authorizer of every row.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        require(voucherClaims.length > 0, "x402BatchSettlement: no claims");
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            ChannelConfig calldata config = voucherClaims[i].voucher.channel;
            require(
                msg.sender == config.receiver || msg.sender == config.receiverAuthorizer,
                "x402BatchSettlement: caller is not the receiver"
            );
            _claim(voucherClaims[i]);
        }
    }

    /// @notice Claims vouchers under a ClaimBatch signature of the rows' common receiver authorizer; anyone may relay.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        require(voucherClaims.length > 0, "x402BatchSettlement: no claims");
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        for (uint256 i = 1; i < voucherClaims.length; i++) {
            require(
                voucherClaims[i].voucher.channel.receiverAuthorizer == authorizer,
                "x402BatchSettlement: mixed receiver authorizers"
            );
        }
        require(
            Signatures.isValidNow(authorizer, getClaimBatchDigest(voucherClaims), authorizerSignature),
            "x402BatchSettlement: invalid authorizer signature"
        );
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            _claim(voucherClaims[i]);
        }
    }

    /// @dev Raises the channel's totalClaimed to the row's. A row at or below what is already claimed changes
    /// nothing (vouchers are cumulative; the x402 SDK sends such rows ahead of a refund).
    function _claim(VoucherClaim calldata c) private {
        ChannelConfig calldata config = c.voucher.channel;
        bytes32 channelId = getChannelId(config);
        require(
            _isValidVoucherSignature(config, getVoucherDigest(channelId, c.voucher.maxClaimableAmount), c.signature),
            "x402BatchSettlement: invalid voucher signature"
        );
        require(c.totalClaimed <= c.voucher.maxClaimableAmount, "x402BatchSettlement: claim exceeds voucher");
        Channel storage channel = channels[channelId];
        require(c.totalClaimed <= channel.balance, "x402BatchSettlement: claim exceeds balance");
        if (c.totalClaimed <= channel.totalClaimed) return;
        uint128 increase = c.totalClaimed - channel.totalClaimed;
        channel.totalClaimed = c.totalClaimed;
        receivers[config.receiver][config.token].totalClaimed += increase;
        emit Claimed(channelId, config.receiver, config.token, increase, c.totalClaimed);
    }

    /// @dev Vouchers are signed by the payer authorizer (ECDSA only) or, when that is zero, by the payer.
    function _isValidVoucherSignature(ChannelConfig calldata config, bytes32 digest, bytes calldata signature)
        private
        view
        returns (bool)
    {
        if (config.payerAuthorizer != address(0)) {
            return Signatures.recover(digest, signature) == config.payerAuthorizer;
        }
        return Signatures.isValidNow(config.payer, digest, signature);
    }

    /// @notice Transfers everything claimed but not yet settled for `receiver` in `token` to the receiver.
    /// Permissionless: the money can only go to the receiver. Nothing to settle is a no-op, not a revert.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverTotals storage totals = receivers[receiver][token];
        uint128 amount = totals.totalClaimed - totals.totalSettled;
        if (amount == 0) return;
        totals.totalSettled = totals.totalClaimed;
        SafeTransfer.transfer(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Cooperative refund

    /// @notice Returns up to `amount` of the unclaimed balance to the payer; by the receiver or receiver authorizer.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        require(
            msg.sender == config.receiver || msg.sender == config.receiverAuthorizer,
            "x402BatchSettlement: caller is not the receiver"
        );
        _refund(config, getChannelId(config), amount);
    }

    /// @notice `refund` under an EIP-712 Refund(channelId, nonce, amount) signature of the receiver authorizer.
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        require(nonce == refundNonce[channelId], "x402BatchSettlement: invalid refund nonce");
        require(
            Signatures.isValidNow(
                config.receiverAuthorizer, getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature
            ),
            "x402BatchSettlement: invalid authorizer signature"
        );
        _refund(config, channelId, amount);
    }

    /// @dev The nonce advances first, even when nothing is left to refund, so any refund invalidates
    /// signatures for the previous nonce. A pending withdrawal shrinks by what was refunded.
    function _refund(ChannelConfig calldata config, bytes32 channelId, uint128 amount) private {
        require(amount > 0, "x402BatchSettlement: zero amount");
        uint256 nonce = refundNonce[channelId]++;
        Channel storage channel = channels[channelId];
        uint128 available = channel.balance - channel.totalClaimed;
        uint128 refunded = amount < available ? amount : available;
        if (refunded == 0) return;
        channel.balance -= refunded;
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt != 0) {
            if (refunded >= pending.amount) delete pendingWithdrawals[channelId];
            else pending.amount -= refunded;
        }
        SafeTransfer.transfer(config.token, config.payer, refunded);
        emit Refunded(channelId, config.payer, refunded, nonce);
        if (channel.balance == 0) emit ChannelClosed(channelId, config);
    }

    // ----------------------------------------------------------------------------------------------------------
    // Timed withdrawal (the payer's escape hatch)

    /// @notice Starts a withdrawal of `amount` of the unclaimed balance; by the payer or the payer authorizer.
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        _requirePayerSide(config);
        bytes32 channelId = getChannelId(config);
        Channel storage channel = channels[channelId];
        require(amount > 0, "x402BatchSettlement: zero amount");
        require(amount <= channel.balance - channel.totalClaimed, "x402BatchSettlement: amount exceeds unclaimed balance");
        require(pendingWithdrawals[channelId].initiatedAt == 0, "x402BatchSettlement: withdrawal already pending");
        pendingWithdrawals[channelId] = PendingWithdrawal(amount, uint40(block.timestamp));
        emit WithdrawInitiated(channelId, amount, block.timestamp + config.withdrawDelay);
    }

    /// @notice Completes a withdrawal once the channel's delay has passed. Pays what is still unclaimed, at
    /// most the amount initiated: claims made during the delay take precedence.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        _requirePayerSide(config);
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal memory pending = pendingWithdrawals[channelId];
        require(pending.initiatedAt != 0, "x402BatchSettlement: no pending withdrawal");
        require(
            block.timestamp >= uint256(pending.initiatedAt) + config.withdrawDelay,
            "x402BatchSettlement: withdraw delay not elapsed"
        );
        delete pendingWithdrawals[channelId];
        Channel storage channel = channels[channelId];
        uint128 available = channel.balance - channel.totalClaimed;
        uint128 paid = pending.amount < available ? pending.amount : available;
        channel.balance -= paid;
        if (paid > 0) SafeTransfer.transfer(config.token, config.payer, paid);
        emit Withdrawn(channelId, config.payer, paid);
        if (channel.balance == 0) emit ChannelClosed(channelId, config);
    }

    function _requirePayerSide(ChannelConfig calldata config) private view {
        require(
            msg.sender == config.payer || (config.payerAuthorizer != address(0) && msg.sender == config.payerAuthorizer),
            "x402BatchSettlement: caller is not the payer"
        );
    }

    // ----------------------------------------------------------------------------------------------------------
    // Batching

    /// @notice Runs several calls to this contract in one transaction (e.g. claimWithSignature then
    /// refundWithSignature); msg.sender is preserved, and the first failure reverts everything with its reason.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory ret) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(ret, 0x20), mload(ret))
                }
            }
            results[i] = ret;
        }
    }
}

/// @notice Pulls ERC-3009 deposits for the escrow: the payer signs `receiveWithAuthorization` with this contract
/// as the payee and nonce keccak256(abi.encode(channelId, salt)), so the authorization can only fund that one
/// channel, and only through the escrow's `deposit`. Runtime code only, so the escrow address is a constant.
contract ERC3009DepositCollector {
    address public constant ESCROW = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    /// @param data abi.encode(uint256 validAfter, uint256 validBefore, uint256 salt, bytes signature)
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external {
        require(msg.sender == ESCROW, "ERC3009DepositCollector: caller is not the escrow");
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(data, (uint256, uint256, uint256, bytes));
        bytes32 nonce = keccak256(abi.encode(channelId, salt));
        IERC3009Receive(token).receiveWithAuthorization(payer, address(this), amount, validAfter, validBefore, nonce, signature);
        SafeTransfer.transfer(token, ESCROW, amount);
    }
}
