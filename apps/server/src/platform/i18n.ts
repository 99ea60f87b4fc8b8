/**
 * Server messages in the request's language (docs/product/calls.md#language: query `language` = `eng` for English, else
 * zh_CN). Chinese texts are the product's own; English is the translation.
 */
import { DISPLAY_NAME, HOME_ADDRESS, LAYOUT_NAME, PAGE_IMAGE_SRC, TENANT_LOGO } from '@portal/contracts';
import type { Translations } from '../db/schema.js';

export type Lang = 'zh' | 'en';

const messages = {
  ok: { zh: '成功', en: 'Success' },
  badRequest: { zh: '请求参数不正确：{detail}', en: 'Invalid request: {detail}' },
  badJson: { zh: '请求体不是合法的 JSON', en: 'The request body is not valid JSON' },
  bodyTooLarge: { zh: '请求体过大', en: 'The request body is too large' },
  bodyTooDeep: { zh: '请求体嵌套层级过深', en: 'The request body is nested too deeply' },
  bodyArrayTooLong: { zh: '请求体中的列表项过多', en: 'A list in the request body has too many items' },
  bodyStringTooLong: { zh: '请求体中的文本过长', en: 'A text in the request body is too long' },
  multipartBoundary: {
    zh: '上传的请求格式不正确：multipart/form-data 缺少有效的 boundary',
    en: 'The upload is malformed: multipart/form-data without a valid boundary',
  },
  multipartMalformed: {
    zh: '上传的请求格式不正确：multipart/form-data 内容不完整或已损坏',
    en: 'The upload is malformed: the multipart/form-data body is incomplete or damaged',
  },
  badRequestGeneric: { zh: '请求不正确', en: 'The request is not valid' },
  badUrl: { zh: '请求地址格式不正确', en: 'The request address is not valid' },
  urlTooLong: { zh: '请求地址过长', en: 'The request address is too long' },
  headersTooLarge: { zh: '请求头或请求地址过长', en: 'The request headers or address are too long' },
  requestTimeout: { zh: '请求超时', en: 'The request timed out' },
  badHttp: { zh: '请求格式不正确', en: 'The request is malformed' },
  unsupportedMedia: { zh: '不支持的请求内容类型', en: 'Unsupported content type' },
  notFound: { zh: '请求的资源不存在', en: 'The requested resource does not exist' },
  pageNotFound: { zh: '页面不存在或无权查看', en: 'The page does not exist or you may not view it' },
  serverError: { zh: '服务器错误', en: 'Server error' },
  unavailable: { zh: '服务暂不可用，请稍后再试', en: 'The service is unavailable, please try again later' },
  tooManyRequests: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  smsCooldown: { zh: '验证码已发送，请{seconds}秒后再试', en: 'A code was just sent; try again in {seconds} s' },
  smsDailyCap: { zh: '今日获取验证码次数已达上限，请明天再试', en: 'Too many codes today; please try again tomorrow' },
  smsSendFailed: { zh: '短信发送失败，请稍后再试', en: 'The text message could not be sent; please try again later' },
  smsText: {
    zh: '【{site}】您的验证码是{code}，{minutes}分钟内有效。如非本人操作，请忽略本短信。',
    en: '[{site}] Your verification code is {code}, valid for {minutes} minutes. If you did not ask for it, ignore this message.',
  },
  registered: { zh: '注册成功', en: 'Registration succeeded' },
  usernameTaken: { zh: '该用户名已被注册', en: 'This username is already registered' },
  mobileTaken: { zh: '该手机号已被注册', en: 'This mobile number is already registered' },
  companyTaken: {
    zh: '该公司已注册，请联系贵司管理员加入',
    en: 'This company is already registered; ask its administrator to add you',
  },
  noDefaultRole: {
    zh: '该园区暂未开放注册，请联系园区管理员',
    en: 'This park does not accept registrations yet; please contact its administrator',
  },
  usernameRequired: { zh: '请输入用户名', en: 'Please enter a username' },
  usernameIsMobile: { zh: '用户名不能是他人的手机号', en: "A username cannot be someone else's mobile number" },
  usernameLength: { zh: '用户名长度应为{min}到{max}个字符', en: 'A username has {min} to {max} characters' },
  usernameInvisible: {
    zh: '用户名不能包含换行、控制字符或不可见字符',
    en: 'A username cannot contain line breaks, control characters or invisible characters',
  },
  usernameSpaces: { zh: '用户名不能包含连续的空格', en: 'A username cannot contain two spaces in a row' },
  usernameCharacters: {
    zh: '用户名只能包含文字、数字、空格和 . _ - @ + · 符号',
    en: 'A username may contain only letters, digits, spaces and . _ - @ + ·',
  },
  usernameLookAlike: {
    zh: '用户名不能包含易被当作英文字母的字符（如 ı、ß，或加在英文字母上的附加符号）',
    en: 'A username cannot contain a character that passes for a plain letter (such as ı, ß, or a mark on a plain letter)',
  },
  nameRequired: { zh: '请输入姓名', en: 'Please enter the name' },
  nameTooLong: { zh: '名称最多{max}个字符', en: 'A name has at most {max} characters' },
  nameInvisible: {
    zh: '名称不能包含换行、控制字符或不可见字符',
    en: 'A name cannot contain line breaks, control characters or invisible characters',
  },
  nameSpaces: { zh: '名称不能包含连续的空格', en: 'A name cannot contain two spaces in a row' },
  policyNoFactor: {
    zh: '要求两步验证时，允许的验证方式中至少要有一种验证器应用、通行密钥或短信（恢复码不能单独使用）',
    en: 'When second factors are asked for, allow at least one of authenticator app, passkey or SMS (recovery codes cannot stand alone)',
  },
  passwordTooShort: { zh: '密码长度至少{min}位', en: 'A password has at least {min} characters' },
  passwordClasses1: {
    zh: '密码须包含数字、小写字母、大写字母、特殊符号中的至少1类',
    en: 'A password needs at least 1 of: digits, lowercase letters, uppercase letters, symbols',
  },
  passwordClasses2: {
    zh: '密码须包含数字、小写字母、大写字母、特殊符号中的至少2类',
    en: 'A password needs at least 2 of: digits, lowercase letters, uppercase letters, symbols',
  },
  passwordClasses3: {
    zh: '密码须包含数字、小写字母、大写字母、特殊符号中的至少3类',
    en: 'A password needs at least 3 of: digits, lowercase letters, uppercase letters, symbols',
  },
  passwordClasses4: {
    zh: '密码须同时包含数字、小写字母、大写字母和特殊符号',
    en: 'A password needs digits, lowercase and uppercase letters and symbols',
  },
  passwordHasUsername: { zh: '密码不能包含用户名', en: 'A password cannot contain the username' },
  passwordKeyboardRun: {
    zh: '密码不能包含键盘或字母顺序的连续字符（如 1234、qwer、abcd）',
    en: 'A password cannot contain keyboard or alphabet runs (such as 1234, qwer, abcd)',
  },
  passwordCommon: {
    zh: '该密码过于常见，容易被猜中，请换一个',
    en: 'This password is too common and easily guessed; choose another',
  },
  passwordReused: {
    zh: '新密码不能与最近{n}次使用过的密码相同',
    en: 'The new password cannot be one of your last {n} passwords',
  },
  companyRequired: { zh: '请输入公司名称!', en: 'Please enter the company name!' },
  industryRequired: { zh: '请选择所属行业!', en: 'Please choose the industry!' },
  regionRequired: { zh: '请选择企业地区!', en: 'Please choose the region!' },
  contactRequired: { zh: '请输入联系人!', en: 'Please enter the contact person!' },
  positionRequired: { zh: '请输入职位!', en: 'Please enter the position!' },
  smsCodeRequired: { zh: '请输入验证码', en: 'Please enter the code' },
  smsCodeInvalid: {
    zh: '短信验证码错误或已失效，请重新获取',
    en: 'The text message code is wrong or has expired; please get a new one',
  },
  resetCodeSent: {
    zh: '若账号与手机号匹配，验证码已发送至该手机',
    en: 'If the account and mobile number match, a code has been sent to that phone',
  },
  resetExpired: {
    zh: '重置链接已失效，请重新验证手机号',
    en: 'This reset has expired; please verify your mobile number again',
  },
  passwordChanged: { zh: '密码已修改，请重新登录', en: 'Password changed; please sign in again' },
  oldPasswordWrong: { zh: '原密码错误', en: 'The current password is wrong' },
  stepUpPasswordWrong: { zh: '密码错误', en: 'The password is wrong' },
  passwordLocked: { zh: '密码错误次数过多，请稍后再试', en: 'Too many wrong passwords. Please try again later' },
  passwordChangeRequired: {
    zh: '当前密码为他人设置的临时密码或已过期，请先修改密码',
    en: 'Your password is a temporary one someone else set, or it has expired: change it first',
  },
  passwordUnchanged: { zh: '新密码不能与当前密码相同', en: 'The new password must differ from the current one' },
  signatureMissing: { zh: '请求未签名', en: 'The request is not signed' },
  signatureStale: {
    zh: '请求时间戳无效或已过期，请校准设备时间后重试',
    en: 'The request timestamp is invalid or expired; check the device clock and retry',
  },
  signatureReplay: { zh: '重复的请求已被拒绝', en: 'A repeated request was refused' },
  signatureInvalid: { zh: '请求签名无效', en: 'The request signature is invalid' },
  loginFailed: { zh: '用户名、密码或验证码错误', en: 'Incorrect username, password or captcha' },
  accountDisabled: {
    zh: '该账号已停用，请联系管理员',
    en: 'This account has been disabled. Please contact your administrator',
  },
  factorRequired: { zh: '请完成第二步验证', en: 'Please complete the second verification step' },
  factorChallengeExpired: {
    zh: '验证已过期，请重新登录',
    en: 'The verification has expired; please sign in again',
  },
  factorWrong: { zh: '验证码不正确或已使用', en: 'The code is wrong or was already used' },
  factorSmsUnavailable: {
    zh: '无法使用短信验证码：没有已验证的手机号，或租户不允许',
    en: 'SMS codes are not available: no verified mobile number, or the organisation does not allow them',
  },
  factorSmsTooMany: {
    zh: '本次登录发送验证码次数过多，请重新登录',
    en: 'Too many codes were sent for this sign-in; sign in again',
  },
  factorLocked: {
    zh: '错误次数过多，账号已暂时锁定，请稍后再试',
    en: 'Too many wrong attempts: the account is locked for a while. Try again later',
  },
  factorEnrolRequired: {
    zh: '须先添加第二验证方式才能登录',
    en: 'A second factor must be added before signing in',
  },
  factorNotAllowed: {
    zh: '本租户的安全策略不允许此验证方式',
    en: 'The tenant’s security policy does not allow this kind of factor',
  },
  factorNoneYet: { zh: '请先添加一种第二验证方式', en: 'Add a second factor first' },
  stepUpRequired: {
    zh: '此操作须再次验证身份',
    en: 'Confirm your identity again to do this',
  },
  stepUpPasswordNeeded: { zh: '请输入登录密码', en: 'Enter your password' },
  captchaRequired: { zh: '验证码不可以为空', en: 'The captcha cannot be empty' },
  passkeyFailed: {
    zh: '通行密钥验证失败，请重试或使用密码登录',
    en: 'The passkey could not be verified. Try again or sign in with your password',
  },
  passkeyLocked: {
    zh: '登录失败次数过多，账号已暂时锁定，请稍后再试',
    en: 'Too many failed sign-ins: the account is locked for a while. Please try again later',
  },
  passkeyEnrolFailed: {
    zh: '通行密钥未能添加，请重试',
    en: 'The passkey could not be added. Please try again',
  },
  passkeyNotAllowed: { zh: '本园区未启用通行密钥', en: 'Passkeys are not enabled in this park' },
  passkeyLimit: { zh: '通行密钥数量已达上限（{max} 个）', en: 'You already have the most passkeys allowed ({max})' },
  passkeyTaken: { zh: '该通行密钥已添加过', en: 'This passkey is already added' },
  passwordUndecryptable: {
    zh: '密码加密数据无效，请刷新页面后重试',
    en: 'The encrypted password is invalid; reload the page and retry',
  },
  unauthorized: {
    zh: '你已被登出，可以取消继续留在该页面，或者重新登录',
    en: 'You have been signed out. Stay on this page or sign in again',
  },
  noPermission: { zh: '当前用户无相关操作权限！', en: 'You have no permission for this operation!' },
  idInvalid: { zh: '编号格式不正确', en: 'The id is not valid' },
  roleNotHeld: { zh: '当前用户不拥有该角色', en: 'You do not hold this role' },
  switchNothing: { zh: '请选择要切换的角色、应用或工作台', en: 'Choose a role, application or workbench to switch to' },
  entNotJoined: { zh: '当前用户未加入该企业', en: 'You have not joined this enterprise' },
  appNotGranted: { zh: '当前用户无该应用权限', en: 'You are not granted this application' },
  workbenchNotHeld: { zh: '当前用户无该工作台权限', en: 'You may not use this workbench' },
  notOwnAccount: { zh: '只能查看和修改自己的账号信息', en: 'You may only see and change your own account' },
  appUnknown: { zh: '应用不存在', en: 'No such application' },
  noCurrentEnterprise: {
    zh: '当前未选择企业，请先切换到要管理的企业',
    en: 'No enterprise is selected; switch to the enterprise you manage first',
  },
  alreadyMember: { zh: '该手机号的用户已是本企业成员', en: 'The user with this mobile number is already a member' },
  invited: {
    zh: '邀请已发出，对方下次登录或注册后即加入本企业',
    en: 'Invitation sent: they join the enterprise when they next sign in or register',
  },
  mobileMissing: {
    zh: '账号未登记手机号，请联系管理员',
    en: 'Your account has no mobile number; ask an administrator',
  },
  mobileAlreadyVerified: { zh: '手机号已验证', en: 'Your mobile number is verified already' },
  mobileCodeSent: { zh: '验证码已发送至 {mobile}', en: 'A code has been sent to {mobile}' },
  mobileVerified: {
    zh: '手机号已验证，发给该号码的企业邀请将在下次登录时生效',
    en: 'Mobile number verified: invitations to it take effect at your next sign-in',
  },
  fileRefused: { zh: '{name} 该文件格式不符合要求', en: '{name}: this file type is not accepted' },
  fileNameInvalid: { zh: '文件名不正确：{name}', en: 'The file name is not valid: {name}' },
  fileTooLarge: { zh: '文件过大，请上传{mb}MB以内的文件', en: 'The file is too large; the limit is {mb} MB' },
  fileMissing: { zh: '请选择要上传的文件', en: 'Choose a file to upload' },
  uploadFilesPerHour: {
    zh: '上传过于频繁：每小时最多上传 {limit} 个文件，请稍后再试',
    en: 'Too many uploads: at most {limit} files an hour; please try again later',
  },
  uploadFilesPerDay: {
    zh: '上传过于频繁：每天最多上传 {limit} 个文件，请稍后再试',
    en: 'Too many uploads: at most {limit} files a day; please try again later',
  },
  uploadBytesPerHour: {
    zh: '上传的文件过多：每小时最多上传 {mb} MB，请稍后再试',
    en: 'Too much uploaded: at most {mb} MB an hour; please try again later',
  },
  uploadBytesPerDay: {
    zh: '上传的文件过多：每天最多上传 {mb} MB，请稍后再试',
    en: 'Too much uploaded: at most {mb} MB a day; please try again later',
  },
  fileNotYours: { zh: '附件不存在或不是本人上传的文件', en: 'An attachment does not exist or was not uploaded by you' },
  noticeNotFound: { zh: '通知不存在', en: 'No such notice' },
  noticeClosed: {
    zh: '该通知已回复、已过期或不接受此种回复',
    en: 'This notice is answered already, expired, or does not take this kind of answer',
  },
  noticeWithdrawn: { zh: '该通知已撤回', en: 'This notice has been withdrawn already' },
  noticeTitleRequired: { zh: '请填写通知标题', en: 'Enter the notice’s title' },
  noticeTitleOneLine: {
    zh: '通知标题须为一行文字，不能含换行、控制字符或不可见字符',
    en: 'The notice’s title must be one line, without line breaks, control or invisible characters',
  },
  noticeValidityPast: { zh: '有效期须晚于现在', en: 'The validity must end later than now' },
  noticeAudienceInvalid: {
    zh: '接收范围中有不属于本租户的角色、企业或用户',
    en: 'The audience names a role, enterprise or user that is not of your tenant',
  },
  noticeQuota: {
    zh: '发布过于频繁：每小时最多发布 {limit} 条通知，请稍后再试',
    en: 'Too many notices: at most {limit} an hour; please try again later',
  },
  replyLength: { zh: '长度在 2 到 255 个字符', en: 'Between 2 and 255 characters' },
  receiverNotSelf: { zh: '只能查看自己的通知', en: 'You may only see your own notices' },
  tenantNotSelf: { zh: '只能查看本租户的应用', en: 'You may only see the applications of your own tenant' },
  entryInvalid: {
    zh: '入口地址须为 http(s) 地址，或以 / 开头的本站路径',
    en: 'The entry must be an http(s) address, or a path on this site starting with /',
  },
  repairNotFound: { zh: '报修单不存在', en: 'No such repair request' },
  repairFields: {
    zh: '请填写报修事项和位置（至少2个字）',
    en: 'Enter what to repair and where (2 characters at least)',
  },
  repairStatusClosed: {
    zh: '报修单已处于该状态或已完成',
    en: 'The request is in this state already, or done',
  },
  roomUnknown: { zh: '会议室不存在', en: 'No such meeting room' },
  bookingSubject: { zh: '请填写会议主题（至少2个字）', en: 'Enter a subject (2 characters at least)' },
  bookingDate: { zh: '日期或时间不正确', en: 'The date or time is not valid' },
  bookingQuarter: {
    zh: '开始和结束时间须为整刻钟（00、15、30、45分）',
    en: 'Start and end on a quarter hour (:00, :15, :30 or :45)',
  },
  bookingLength: {
    zh: '预约时长须在15分钟到8小时之间，且在同一天内',
    en: 'A booking lasts 15 minutes to 8 hours, within one day',
  },
  bookingPast: { zh: '不能预约已经过去的时间', en: 'You cannot book a time that has passed' },
  bookingFar: { zh: '只能预约60天内的时段', en: 'Bookings are open for the next 60 days' },
  bookingConflict: { zh: '该时段已被预约，请选择其他时间', en: 'This time is booked already; choose another' },
  bookingNotFound: { zh: '预约不存在', en: 'No such booking' },
  bookingStarted: { zh: '已开始或已结束的预约不能取消', en: 'A booking that has started or ended cannot be cancelled' },
  alertNotFound: { zh: '告警不存在', en: 'No such alert' },
  alertHandled: {
    zh: '该告警已确认或已关闭',
    en: 'This alert is acknowledged or closed already',
  },
  deviceNotFound: { zh: '设备不存在', en: 'No such device' },
  pageUnpublished: { zh: '该页面尚未发布', en: 'This page is not published yet' },
  pageExists: { zh: '页面编码已存在', en: 'A page with this code exists already' },
  pageStale: {
    zh: '页面已被他人保存为新版本，请重新加载后再修改',
    en: 'Someone saved a newer version of this page; reload it before you change it',
  },
  pageVersionNotFound: { zh: '页面或版本不存在', en: 'No such page or version' },
  pageInvalid: {
    zh: '该页面的定义不符合当前格式，请在页面设计中保存一个新版本',
    en: 'This page’s definition no longer fits the current format; save a new version in the page designer',
  },
  duplicateWidget: { zh: '组件编号重复', en: 'Two widgets have the same id' },
  outsideGrid: { zh: '组件超出了页面的 12 列', en: 'A widget reaches beyond the page’s 12 columns' },
  pageTooLarge: {
    zh: '页面定义过大（最多 200 KB），请压缩图片或减少组件',
    en: 'The page is too large (at most 200 KB); use smaller images or fewer widgets',
  },
  frameNotAllowed: {
    zh: '嵌入页面的地址 {origin} 不在本园区登记的应用中',
    en: 'The embedded address {origin} is not among the park’s registered applications',
  },
  credentialNotFound: { zh: '凭据不存在或已吊销', en: 'No such credential, or it is revoked' },
  deviceCredentialInvalid: {
    zh: '设备凭据无效或已吊销',
    en: 'The device credential is invalid or revoked',
  },
  ingestEmpty: { zh: '请至少上报一条读数或告警', en: 'Send at least one reading or alert' },
  ingestTime: {
    zh: '第 {n} 条读数的时间须在过去 24 小时内，且不晚于当前时间 5 分钟',
    en: 'Reading {n}: its time must be within the last 24 hours and at most 5 minutes ahead',
  },
  invitationClosed: { zh: '该邀请不存在或已结束', en: 'This invitation does not exist or is closed' },
  nicknameRequired: { zh: '请输入昵称', en: 'Please enter a nickname' },
  nicknameTooLong: { zh: '昵称不能超过32个字符', en: 'A nickname has at most 32 characters' },
  loggedOut: { zh: '已退出登录', en: 'Signed out' },
  tenantUnknown: { zh: '租户不存在', en: 'Unknown tenant' },
  phoneInvalid: { zh: '请输入正确手机号', en: 'Please enter a valid mobile number' },
  humanCheckFailed: {
    zh: '验证码错误或已失效，请重新验证',
    en: 'The captcha is wrong or has expired; please try again',
  },
  ssoUnknownService: {
    zh: '该应用未在统一认证中心登记，无法登录',
    en: 'This application is not registered with the sign-on service',
  },
  ticketInvalid: { zh: '票据无效或已过期，请重新登录', en: 'The ticket is invalid or expired, please sign in again' },
  ssoNotConfigured: { zh: '未配置统一认证中心', en: 'No sign-on service is configured' },
  ssoUnreachable: {
    zh: '统一认证中心暂不可用，请稍后再试',
    en: 'The sign-on service is unavailable, please try again later',
  },
  ssoUnknownSystem: { zh: '该系统未登记或未启用单点登录', en: 'This system is not registered for single sign-on' },
  ssoForeignOrigin: { zh: '登录请求来自其他站点，已拒绝', en: 'A sign-in posted from another site was refused' },
  ssoPageTitle: { zh: '统一认证中心', en: 'Sign-on service' },
  oidcFailed: { zh: '登录请求无法完成', en: 'The sign-in request could not be completed' },
  oidcErrorCode: { zh: '错误代码：{code}', en: 'Error code: {code}' },
  oidcLogoutAsk: { zh: '要退出统一认证中心吗？', en: 'Sign out of the sign-on service?' },
  oidcLogoutYes: { zh: '退出', en: 'Sign out' },
  oidcLogoutNo: { zh: '保持登录', en: 'Stay signed in' },
  oidcDeviceEnter: { zh: '请输入设备上显示的代码', en: 'Enter the code your device shows' },
  oidcDeviceWrong: { zh: '代码不正确，请重新输入', en: 'That code is not right. Try again' },
  oidcDeviceAborted: { zh: '登录请求已取消', en: 'The sign-in request was cancelled' },
  oidcDeviceFailed: { zh: '无法处理此请求', en: 'The request could not be processed' },
  oidcDeviceConfirm: {
    zh: '确认在设备上登录“{client}”？设备上显示的代码应为：',
    en: 'Sign in to “{client}” on your device? Your device should show this code:',
  },
  oidcDeviceDone: { zh: '设备已登录，可以关闭此页面。', en: 'Your device is signed in. You can close this page.' },
  oidcContinue: { zh: '继续', en: 'Continue' },
  oidcCancel: { zh: '取消', en: 'Cancel' },
  oidcConsentTitle: { zh: '授权确认', en: 'Allow access' },
  oidcConsentAsk: {
    zh: '“{client}”请求读取您在{tenant}的以下信息：',
    en: '“{client}” asks to read the following of your account at {tenant}:',
  },
  oidcScopeOpenid: { zh: '您的账号标识', en: 'Your account identifier' },
  oidcScopeProfile: { zh: '用户名和姓名', en: 'Your username and name' },
  oidcScopePhone: { zh: '手机号', en: 'Your mobile number' },
  oidcScopeRoles: { zh: '您在本园区的角色', en: 'Your roles in this park' },
  oidcScopeEnterprise: { zh: '您所在的企业', en: 'Your enterprise' },
  oidcAllow: { zh: '允许', en: 'Allow' },
  oidcDeny: { zh: '拒绝', en: 'Deny' },
  ssoLoggedOut: { zh: '您已退出统一认证中心', en: 'You have signed out of the sign-on service' },
  ssoSignedIn: {
    zh: '{name}，您已登录{tenant}统一认证中心。',
    en: '{name}, you are signed in to the sign-on service of {tenant}.',
  },
  ssoSignOut: { zh: '退出登录', en: 'Sign out' },
  exampleTitle: { zh: '园区物业服务（示例外部系统）', en: 'Park property services (example external system)' },
  exampleWelcome: {
    zh: '{name}，您已通过统一认证中心登录本系统。',
    en: '{name}, you are signed in through the sign-on service.',
  },
  exampleName: { zh: '姓名', en: 'Name' },
  exampleAccount: { zh: '账号', en: 'Account' },
  examplePark: { zh: '园区', en: 'Park' },
  exampleSignedInAt: { zh: '登录时间', en: 'Signed in at' },
  exampleNote: {
    zh: '本页由一个独立于门户的外部系统提供：它只通过统一认证中心（CAS 3.0）识别用户，退出时也一并退出统一认证中心。',
    en: 'This page belongs to a system apart from the portal: it knows you only through the sign-on service (CAS 3.0), and signing out here signs you out there too.',
  },
  oidcExampleTitle: {
    zh: '园区访客服务（OpenID Connect 示例）',
    en: 'Park visitor services (OpenID Connect example)',
  },
  oidcExampleWelcome: {
    zh: '{name}，您已通过 OpenID Connect 登录本系统。',
    en: '{name}, you are signed in through OpenID Connect.',
  },
  oidcExampleSignedOut: { zh: '您尚未登录本系统。', en: 'You are not signed in to this system.' },
  oidcExampleSignIn: { zh: '通过统一认证中心登录', en: 'Sign in through the sign-on service' },
  oidcExampleRefused: {
    zh: '登录未完成（授权被拒绝或已过期），请重新登录。',
    en: 'The sign-in did not complete (refused or expired); please sign in again.',
  },
  oidcExampleSubject: { zh: '用户标识（sub）', en: 'Subject (sub)' },
  oidcExampleRoles: { zh: '角色', en: 'Roles' },
  oidcExampleEnterprise: { zh: '企业', en: 'Enterprise' },
  oidcExampleNone: { zh: '无', en: 'None' },
  oidcExampleNote: {
    zh: '本页由一个独立于门户的外部系统提供：它是统一认证中心 OpenID Connect 提供方的客户端（授权码流程 + PKCE），以上信息来自 ID 令牌和 UserInfo。在门户退出时，统一认证中心通过后台退出通知（back-channel logout）结束本系统的会话。',
    en: 'This page belongs to a system apart from the portal: a client of the sign-on service’s OpenID Provider (code flow with PKCE); what it shows comes from the ID token and UserInfo. Signing out of the portal ends this session too, by back-channel logout.',
  },
  operatorOwnTenant: { zh: '只能管理本租户', en: 'You may only administer your own tenant' },
  operatorSelf: {
    zh: '不能对自己的账号执行此操作，请在个人设置中修改',
    en: 'You cannot do this to your own account; change it in your own settings',
  },
  operatorOwnRole: {
    zh: '不能修改当前使用中的角色的权限，请切换到其他角色后再改',
    en: 'You cannot change the permissions of the role you are acting in; switch to another role first',
  },
  platformOnly: { zh: '仅平台运营人员可管理租户', en: 'Only platform operators may administer tenants' },
  tenantTaken: { zh: '该租户编码已被使用', en: 'This tenant code is already in use' },
  logoInvalid: {
    zh: '标志须为上传的 PNG 或 JPEG 图片',
    en: 'The logo must be an uploaded PNG or JPEG image',
  },
  logoTooLarge: { zh: '标志图片不能超过 512 KB', en: 'The logo may be at most 512 KB' },
  homeUrlInvalid: {
    zh: '园区首页地址须以 http:// 或 https:// 开头',
    en: 'The park home address must start with http:// or https://',
  },
  serviceAddressInvalid: {
    zh: '服务地址须为完整的 http(s) 地址（以 / 结尾时包括其下所有地址）',
    en: 'A service address must be a whole http(s) address (ending in / covers everything below it)',
  },
  serviceAddressRefused: {
    zh: '该地址指向本机、内网、链路本地或云元数据地址，服务器不向这类地址发送请求，不能登记（安装者可在 OUTBOUND_ALLOWED_CIDRS 中列出允许的网段）',
    en: 'This address points to this machine, a private network, a link-local or a cloud metadata address; the server sends no requests there, so it cannot be registered (the installation can list allowed ranges in OUTBOUND_ALLOWED_CIDRS)',
  },
  oidcClientNameRequired: { zh: '请输入客户端名称', en: 'Please enter the client’s name' },
  oidcRedirectUriInvalid: {
    zh: '回调地址须为完整的 http(s) 地址，不含用户名密码、#片段或通配符 *',
    en: 'A redirect URI must be a whole http(s) address, without user name or password, #fragment or wildcard *',
  },
  oidcBackchannelUriInvalid: {
    zh: '后台退出通知地址须为完整的 http(s) 地址，不含用户名密码、#片段或通配符 *',
    en: 'The back-channel logout URI must be a whole http(s) address, without user name or password, #fragment or wildcard *',
  },
  oidcClientCredentialsPublic: {
    zh: '公开客户端没有密钥，不能使用 client_credentials 授权',
    en: 'A public client has no secret, so it cannot use the client_credentials grant',
  },
  oidcRefreshAlone: {
    zh: 'refresh_token 须与 authorization_code 或设备码授权一同使用',
    en: 'refresh_token needs authorization_code or the device code grant beside it',
  },
  oidcRedirectRequired: {
    zh: '使用 authorization_code 授权时至少需要一个登录回调地址',
    en: 'The authorization_code grant needs at least one redirect URI',
  },
  oidcTooManyUris: { zh: '每类回调地址最多{max}个', en: 'At most {max} addresses of each kind' },
  oidcOpenidRequired: {
    zh: '用户登录的授权（authorization_code、设备码）须包含 openid 范围',
    en: 'Grants a person signs in through (authorization_code, device code) need the openid scope',
  },
  oidcPublicNoSecret: { zh: '公开客户端没有密钥', en: 'A public client has no secret' },
  oidcServiceAccountGrant: {
    zh: '服务账户须为机密客户端，并启用 client_credentials 授权',
    en: 'A service account must be a confidential client with the client_credentials grant',
  },
  oidcServiceAccountRole: {
    zh: '请为服务账户选择本租户的一个角色',
    en: 'Choose a role of this tenant for the service account',
  },
  oidcServiceRoleUnknown: { zh: '角色不存在或不属于本租户', en: 'No such role in this tenant' },
  serviceAccountPeopleOnly: {
    zh: '服务账户不能执行此操作，请由操作员在控制台完成',
    en: 'A service account cannot do this; an operator does it in the console',
  },
  serviceAccountRefused: {
    zh: '服务账户不能使用此功能（它没有会话，也不代表任何人）',
    en: 'A service account cannot use this (it has no session and stands for no person)',
  },
  servicePatternTaken: {
    zh: '该地址已登记在其他租户下，同一地址只能属于一个租户',
    en: 'This address is registered by another tenant; an address belongs to one tenant only',
  },
  operatorCodeFixed: {
    zh: '管理权限必须保持生效：{code} 的类型和状态不能修改',
    en: 'A code that administers the tenant stays enforced: the type and status of {code} cannot change',
  },
  defaultRoleOperatorCode: {
    zh: '默认角色不能拥有管理权限：{codes}。每个新注册的用户都会获得默认角色，请把这些权限交给其他角色',
    en: 'The default role cannot hold codes that administer the tenant: {codes}. Every newcomer gets the default role; give these codes to another role',
  },
  appReplaceNeedsOperator: {
    zh: '应用“{code}”已登记，替换它的入口需要系统管理权限（system:manage）',
    en: 'The application "{code}" is registered; replacing its entry needs the system management code (system:manage)',
  },
  entryHostInvalid: {
    zh: '入口地址的主机名只能由字母、数字、连字符和点组成（不能使用 * 等通配符）',
    en: 'The entry’s host name may hold only letters, digits, hyphens and dots (no * or other wildcards)',
  },
  imageNotAllowed: {
    zh: '{field}：图片 {src} 不可用，图片须为上传的图片，或本园区登记的应用所在地址的 http(s) 图片',
    en: '{field}: the image {src} is not allowed; an image is an uploaded one, or an http(s) image at a registered application’s address',
  },
  ingestTooManyMetrics: {
    zh: '每台设备最多上报 {max} 种指标，本次上报的新指标会超出这个数量',
    en: 'A device reports at most {max} different metrics; the new metrics of this post would exceed that',
  },
  registrationClosed: { zh: '该园区暂不开放注册', en: 'This park does not take registrations' },
  timeInvalid: { zh: '时间格式不正确或不存在', en: 'The time is not valid' },
  signInUnknown: { zh: '该登录不存在或已结束', en: 'No such sign-in, or it has ended' },
  historyRangeInvalid: {
    zh: '开始时间须早于结束时间',
    en: 'The start of the range must come before its end',
  },
  codeTaken: { zh: '该编码已被使用', en: 'This code is already in use' },
  reviewReasonRequired: { zh: '请填写未通过的原因', en: 'Please give the reason it did not pass' },
  menuCycle: {
    zh: '不能把菜单移到它自己或它的下级之下',
    en: 'A menu entry cannot move under itself or its own entries',
  },
  menuHasChildren: { zh: '请先删除或移走下级菜单', en: 'Remove or move its sub-entries first' },
  menuTooLarge: { zh: '菜单条目过多（最多 2000 个）', en: 'Too many menu entries (at most 2,000)' },
  menuUnknownCode: {
    zh: '本租户没有编码为“{code}”的角色或应用',
    en: 'This tenant has no role or application "{code}"',
  },
  exampleSignOut: { zh: '退出', en: 'Sign out' },
  exampleSignInAgain: { zh: '重新登录', en: 'Sign in again' },
  // AJ-Captcha's repMsg catalogue, by repCode.
  captcha0000: { zh: '成功', en: 'Success' },
  captcha0011: { zh: '{0}不能为空', en: '{0} cannot be empty' },
  captcha0016: { zh: '{0}格式错误', en: '{0} has an invalid format' },
  captcha6110: { zh: '验证码已失效，请重新获取', en: 'The captcha has expired, please get a new one' },
  captcha6111: { zh: '验证失败', en: 'Verification failed' },
  captcha6201: { zh: 'get接口请求次数超限，请稍后再试!', en: 'Too many captcha requests, please try again later!' },
  captcha6202: { zh: '接口验证失败数过多，请稍后再试', en: 'Too many failed verifications, please try again later' },
  captcha6204: {
    zh: 'check接口请求次数超限，请稍后再试!',
    en: 'Too many verification requests, please try again later!',
  },
  captcha9999: { zh: '服务器内部异常', en: 'Internal server error' },
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof messages;

export function t(lang: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  const text: string = messages[key][lang];
  // One pass: a value that itself contains "{name}" or "$&" stays as it is.
  return params ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m)) : text;
}

export function langOf(query: unknown): Lang {
  const q = query as Record<string, unknown> | undefined;
  return q && q.language === 'eng' ? 'en' : 'zh';
}

/**
 * A row's `field` in `lang` (ADR 020): its translation when it has one, else the Chinese of record.
 * Names that are data are resolved here, once, as the answer is made; the wire carries one name.
 */
export function localized<T extends Record<K, unknown>, K extends keyof T>(
  lang: Lang,
  row: T & { translations: Translations<Pick<T, K>> | null },
  field: K,
): T[K] {
  const other = lang === 'zh' ? undefined : row.translations?.[lang]?.[field];
  return (other ?? row[field]) as T[K];
}

interface SchemaIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

const NAME_RULE = {
  zh: "只能包含文字、数字、单个空格和 · & ' ( ) _ - . , ， 、，须以文字或数字开头，不能包含网址或域名",
  en: "may hold only letters, digits, single spaces and · & ' ( ) _ - . , ， 、, must begin with a letter or a digit, and has no link or domain name",
};
/**
 * Patterns of the contracts whose failure is told as the rule itself, not only as a wrong format:
 * a person who typed a site name with a link learns why it was refused (ADR 036).
 */
const PATTERN_RULES: Record<string, Record<Lang, string>> = {
  [DISPLAY_NAME]: NAME_RULE,
  [`${DISPLAY_NAME}|^$`]: NAME_RULE,
  [LAYOUT_NAME]: { zh: '最多 32 个字母、数字、_ 或 -', en: 'may hold at most 32 letters, digits, _ or -' },
  [HOME_ADDRESS]: {
    zh: '须为 http:// 或 https:// 开头的地址',
    en: 'must be an address starting with http:// or https://',
  },
  [TENANT_LOGO]: { zh: '须为上传的 PNG 或 JPEG 图片', en: 'must be an uploaded PNG or JPEG image' },
  [PAGE_IMAGE_SRC]: {
    zh: '须为上传的图片或 http(s) 图片地址，不能是门户自身的路径',
    en: 'must be an uploaded image or an http(s) image address, never a path of the portal',
  },
};

/** A person-readable line for the first schema issue, in the request's language. */
export function describeSchemaIssue(issue: SchemaIssue, context: string, lang: Lang): string {
  const field =
    issue.keyword === 'required' && issue.params?.missingProperty
      ? String(issue.params.missingProperty)
      : (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || context;
  const p = issue.params ?? {};
  const zh: Record<string, string> = {
    required: `缺少必填字段 ${field}`,
    type: `${field} 的类型应为 ${String(p.type)}`,
    maxLength: `${field} 最多 ${String(p.limit)} 个字符`,
    minLength: `${field} 至少 ${String(p.limit)} 个字符`,
    pattern: `${field} 的格式不正确`,
    maximum: `${field} 不能大于 ${String(p.limit)}`,
    minimum: `${field} 不能小于 ${String(p.limit)}`,
    additionalProperties: `不允许的字段 ${String(p.additionalProperty)}`,
    maxItems: `${field} 最多 ${String(p.limit)} 项`,
    enum: `${field} 的取值不在允许范围内`,
    const: `${field} 的取值不在允许范围内`,
    anyOf: `${field} 的类型或格式不正确`,
    format: `${field} 的格式不正确`,
    minItems: `${field} 至少 ${String(p.limit)} 项`,
    controlCharacter: `${field} 不能包含控制字符`,
    loneSurrogate: `${field} 含有无效的字符（不成对的 UTF-16 代理项）`,
    numberRange: `${field} 不是有效的数值`,
    nothingToChange: `请求体中没有可修改的字段，可修改的有：${String(p.fields)}`,
  };
  const en: Record<string, string> = {
    required: `missing required field ${field}`,
    type: `${field} must be of type ${String(p.type)}`,
    maxLength: `${field} must have at most ${String(p.limit)} characters`,
    minLength: `${field} must have at least ${String(p.limit)} characters`,
    pattern: `${field} has an invalid format`,
    maximum: `${field} must not be greater than ${String(p.limit)}`,
    minimum: `${field} must not be less than ${String(p.limit)}`,
    additionalProperties: `field ${String(p.additionalProperty)} is not allowed`,
    maxItems: `${field} must have at most ${String(p.limit)} items`,
    enum: `${field} is not an allowed value`,
    const: `${field} is not an allowed value`,
    anyOf: `${field} has an invalid type or format`,
    format: `${field} has an invalid format`,
    minItems: `${field} must have at least ${String(p.limit)} items`,
    controlCharacter: `${field} must not contain control characters`,
    loneSurrogate: `${field} contains an invalid character (half of a UTF-16 surrogate pair)`,
    numberRange: `${field} is not a valid number`,
    nothingToChange: `the body changes nothing: give at least one of ${String(p.fields)}`,
  };
  const rule = issue.keyword === 'pattern' ? PATTERN_RULES[String(p.pattern)] : undefined;
  if (rule) return `${field} ${rule[lang]}`;
  const table = lang === 'en' ? en : zh;
  return table[issue.keyword ?? ''] ?? (lang === 'en' ? `${field} is not valid` : `${field} 的值不正确`);
}
