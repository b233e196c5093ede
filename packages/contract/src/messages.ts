/**
 * Messages the server answers, by key, in both languages. Every error and field error carries a key
 * and its parameters; the server fills `message` in the caller's language (Accept-Language) and the
 * web may render the key again when the user switches language. No server sentence is English-only.
 */
import type { Label } from './label.js';

/** A parameter of a message: text, a number, or a label given in both languages. */
export type MessageParam = string | number | Label | readonly (string | number)[];
export type MessageParamsOf = Readonly<Record<string, MessageParam>>;

const m = (zh: string, en: string): Label => ({ zh, en });

export const SERVER_MESSAGES = {
  // Generic answers
  'error.request': m('请求参数有误', 'request error'),
  'error.forbidden': m('无权访问', 'access denied'),
  'error.notFound': m('记录不存在', 'not found'),
  'error.recordNotFound': m('{family} {id} 不存在', '{family} {id} not found'),
  'error.recordsNotFound': m('以下记录不存在：{ids}', 'not found: {ids}'),
  'error.addressNotFound': m('地址不存在', 'address not found'),
  'error.internal': m('服务器内部错误', 'internal server error'),
  'error.staleVersion': m('该记录已被他人修改，请刷新后重试', 'This record was changed by someone else. Reload it and try again.'),
  'error.notEditableInState': m('当前状态为“{state}”，不能修改', 'The record is {state}: it can no longer be changed'),
  'error.notDeletableInState': m('以下记录的状态不允许删除：{titles}', 'These records cannot be deleted in their state: {titles}'),
  'error.wrongStateRow': m('“{title}”当前状态为“{state}”，不能{action}，整批未变更', '{title} is {state}: “{action}” is not possible for it, and nothing in the batch changed'),
  'error.wrongState': m('当前状态为“{state}”，不能{action}', 'The record is {state}: “{action}” is not possible now'),
  'workflow.noRefundPassword': m('请先设置退款密码', 'set a refund password first'),
  'workflow.wrongRefundPassword': m('退款密码错误', 'wrong refund password'),
  'refundPassword.locked': m('退款密码错误次数过多，请 {minutes} 分钟后再试', 'too many wrong refund passwords; try again in {minutes} minute(s)'),
  'payment.providerNotConfigured': m('该支付通道未配置', 'this payment provider is not configured'),
  'payment.notificationRefused': m('通知验签失败', 'the notification did not verify'),
  'refund.oneInFlight': m('该支付已有一笔退款正在处理，请等待其完成', 'another refund of this payment is in flight; wait until it settles'),
  'refund.nothingLeft': m('该支付已无可退金额', 'nothing is left to refund of this payment'),
  'refund.exceedsPayment': m('退款总额不能超过支付金额（最多可退 {refundable} 元）', 'refunds cannot exceed the payment (at most {refundable} yuan left)'),
  'refund.tooManyRefunds': m('同一笔支付最多退款 {max} 次', 'a payment can be refunded at most {max} times'),
  'refund.paymentFullyRefunded': m('该支付已全额退款', 'this payment is refunded in full already'),
  'refundPassword.notOperator': m('只有拥有退款权限的公司用户可以设置退款密码', 'only company users who may refund keep a refund password'),
  'terminalConfig.noParamConfigs': m('无权修改或应用参数模板', 'you may not change or apply parameter templates'),
  'terminalConfig.workingHoursOrder': m('每个时段的开始时间须早于结束时间', 'each range must start before it ends'),
  'terminalConfig.disabled': m('参数模板“{name}”已停用', 'the template “{name}” is disabled'),
  'terminalCommand.templateRequired': m('应用参数模板时须选择模板', 'choose the template to apply'),
  'terminalCommand.templateOnlyToApply': m('只有“应用参数模板”指令带模板', 'only an “apply template” command takes a template'),
  'error.inUse': m('记录仍被其他数据使用', 'the record is still in use'),
  'error.tooManyPages': m('只能翻阅前 {cap} 条记录，请缩小筛选范围', 'only the first {cap} rows are paged: narrow the filters'),
  'error.unknownAction': m('未知操作 {action}', 'unknown action {action}'),
  'error.onlyCompany': m('仅公司管理员可以执行此操作', 'only company administrators may do this'),
  'error.onlyCompanyManages': m('仅公司管理员可以管理{what}', 'only company administrators manage {what}'),
  'error.tooManySmsFromAddress': m('该地址获取验证码过于频繁，请稍后再试', 'too many verification codes from this address; try again later'),
  'error.smsTooSoon': m('验证码已发送，请一分钟后再试', 'a code was sent to this phone less than a minute ago; please wait a minute'),
  'auth.tokenInvalid': m('登录已失效，请重新登录', 'token invalid'),
  'auth.tokenExpired': m('登录已过期，请重新登录', 'token expired'),
  'error.sessionNotFound': m('会话不存在', 'session not found'),
  'error.smsNotSent': m('短信发送失败，请稍后再试', 'the text message could not be sent; please try again later'),
  'error.notReady': m('服务尚未就绪：数据库不可达或迁移未完成', 'not ready: the database does not answer or is not migrated'),
  'error.serverBusy': m('服务器繁忙，请稍后再试', 'the server is busy; please try again in a moment'),
  'error.writeCollided': m('同一数据正被同时修改，本次操作未完成，请重试', 'the same data was being changed at the same moment; this change did not go through; please try again'),

  // Field errors: validation
  'validation.invalid': m('格式不正确', 'is invalid'),
  'validation.required': m('必填', 'is required'),
  'validation.tooShort': m('至少 {min} 个字符', 'must have at least {min} characters'),
  'validation.tooLong': m('最多 {max} 个字符', 'must have at most {max} characters'),
  'validation.tooSmall': m('不能小于 {min}', 'must be at least {min}'),
  'validation.tooBig': m('不能大于 {max}', 'must be at most {max}'),
  'validation.tooFewItems': m('至少 {min} 项', 'must have at least {min} items'),
  'validation.tooManyItems': m('最多 {max} 项', 'must have at most {max} items'),
  'validation.integer': m('必须是整数', 'must be a whole number'),
  'validation.number': m('必须是数字', 'must be a number'),
  'validation.text': m('必须是文本', 'must be text'),
  'validation.oneOf': m('必须是以下之一：{values}', 'must be one of {values}'),
  'validation.unknownField': m('不接受的字段：{fields}', 'unknown field: {fields}'),
  'validation.format': m('格式不正确', 'has the wrong format'),
  'validation.pattern': m('{text}', '{text}'),
  'validation.unknownPlaceholder': m('未知的占位符：{names}（可用：{allowed}）', 'unknown placeholders: {names} (allowed: {allowed})'),
  'validation.md5': m('必须是密码的 MD5 值', 'must be the MD5 hex of the password'),
  'validation.serviceLine': m('请输入手机号、带区号的固定电话或 400/800 电话', 'must be a mobile, a landline with its area code or a 400/800 number'),
  'validation.mobile': m('请输入 11 位手机号', 'must be an 11-digit mobile number'),
  'validation.smsCode': m('验证码为 6 位数字', 'must be 6 digits'),
  'validation.date': m('日期格式应为 YYYY-MM-DD', 'must be a date YYYY-MM-DD'),
  'validation.datetime': m('时间格式不正确', 'must be a date and time'),
  'validation.moneyInCents': m('金额以分为单位，必须是整数', 'money is sent in cents'),
  'validation.noNul': m('不能包含空字符（\\u0000）', 'must not contain a NUL character (\\u0000)'),
  'validation.uploadNotRecorded': m('请在此上传文件', 'upload the file here'),
  'validation.uploadNotInScope': m('文件不存在或不是在您的权限范围内上传的，请重新上传', 'is not a file uploaded in your scope: upload it again'),
  'validation.mediaUrl': m('必须是已上传的文件或 http(s) 地址', 'must be an uploaded file (/uploads/...) or an http(s) URL'),
  'validation.userTypeOrUserId': m('请指定用户类型或用户', 'give either userType or userId'),
  'validation.alreadyExists': m('已存在', 'already exists'),
  'validation.stillUsed': m('仍被其他记录使用', 'is still used by other records'),
  'validation.missingReference': m('引用的记录不存在', 'refers to a record that does not exist'),
  'validation.notAllowed': m('不是允许的值', 'is not an allowed value'),
  'validation.tooLongValue': m('内容过长', 'is too long'),
  'validation.referenceNotFound': m('{field}不存在', '{field} not found'),
  'validation.followedEmpty': m('所选{reference}尚无{field}', 'the chosen {reference} has no {field} yet'),
  'validation.itemsCount': m('需 {min}–{max} 项，每行一项', 'needs {min}–{max} items, one per line'),
  'validation.itemTooLong': m('每项最多 {max} 个字', 'each item may be at most {max} characters'),
  'validation.itemTwice': m('重复：{item}', 'listed twice: {item}'),
  'validation.itemsNotHere': m('此处应留空', 'must be empty here'),
  'validation.fixed': m('创建后不能修改', 'cannot be changed once created'),
  'validation.probeNeeded': m('无权设置此项', 'you may not set this'),
  'validation.requiredWhen': m('{field}为“{value}”时必填', 'is required when {field} is {value}'),
  'validation.notBefore': m('不能早于{field}', 'must not be before {field}'),
  'validation.spanTooLong': m('与{field}最多相隔 {days} 天（含首尾）', 'may be at most {days} days from {field}, both counted'),
  'validation.linkTwice': m('{field}重复', '{field} is listed twice'),
  'validation.linkedElsewhere': m('已属于{family}“{title}”', 'already belongs to {family} {title}'),
  'validation.schoolInScope': m('请选择您权限范围内的学校', 'a school in your scope is required'),
  'validation.mustDiffer': m('新密码不能与当前密码相同', 'must differ from the current password'),
  'validation.wrongSmsCode': m('验证码错误或已过期', 'wrong or expired verification code'),
  'validation.wrongPassword': m('密码错误', 'password error'),
  'validation.noMobile': m('该账号未绑定手机号', 'this account has no mobile number'),
  'validation.accountGone': m('账号已不存在', 'the account no longer exists'),
  'validation.mustBeUnique': m('必须是唯一字段', 'must be a unique field'),
  'validation.totpCode': m('动态码为 6 位数字', 'must be the 6-digit code'),

  // Addresses
  'region.required': m('必填', 'required'),
  'region.unknownProvince': m('不是中国的省份', 'not a province of China'),
  'region.unknownCity': m('不是所选省份下的城市', 'not a city of the chosen province'),
  'region.unknownArea': m('不是所选城市下的区县', 'not a district of the chosen city'),
  'region.unknownProvinces': m('不是中国的省份：{names}', 'not provinces of China: {names}'),
  'region.unknownCities': m('不是所列省份下的城市：{names}', 'not cities of the provinces listed: {names}'),

  // Uploads
  'upload.notMultipart': m('请以 multipart/form-data 上传文件', 'send the files as multipart/form-data'),
  'upload.malformed': m('上传内容格式不正确', 'not a well-formed multipart/form-data upload'),
  'upload.noFile': m('没有收到文件', 'no file was sent'),
  'upload.tooMany': m('一次最多上传 {max} 个文件', 'at most {max} files per upload'),
  'upload.tooLarge': m('“{name}”超过了单个{noun}允许的 {size}', '"{name}" is larger than the {size} allowed for one {noun}'),
  'upload.quotaExceeded': m('上传空间不足：本账号范围的文件最多 {quota}，已用 {used}', 'not enough upload space: the files of this account scope may take {quota} in all, and {used} is used'),
  'upload.wrongType': m('“{name}”不是{types}', '"{name}" is not {types}'),
  'upload.malware': m('“{name}”未通过病毒扫描（{signature}），未保存', '"{name}" failed the malware scan ({signature}) and was not stored'),
  'upload.scannerUnavailable': m('文件病毒扫描暂时不可用，请稍后再上传', 'the malware scan of uploads is unavailable; upload again later'),

  // Login and accounts
  'login.tooManyFromAddress': m('该地址登录失败次数过多，请 {seconds} 秒后再试', 'too many failed attempts from this address; try again in {seconds} second(s)'),
  'login.wrongCaptcha': m('验证码错误', 'verification code error'),
  // The seed's client recognises a wrong password by this exact text, in every language.
  'login.wrongPassword': m('password error', 'password error'),
  'login.locked': m('密码错误次数过多，账号已锁定，请 {minutes} 分钟后再试', 'account locked after too many wrong passwords; try again in {minutes} minute(s)'),
  'login.disabled': m('账号已停用', 'account disabled'),
  'login.mustChangePassword': m('请先验证手机号并修改密码', 'the password must be changed before signing in'),
  'account.cannotDisableSelf': m('不能停用自己的账号', 'you cannot disable your own account'),
  'account.cannotDeleteSelf': m('不能删除自己的账号', 'you cannot delete your own account'),
  'account.cannotChangeOwnType': m('不能修改自己账号的类型', 'you cannot change the type of your own account'),
  'account.agentSchoolsDerived': m('代理商的学校由学校的代理商字段决定', "an agent's schools are the schools naming it as their agent"),
  'account.bindOneSchool': m('请至少绑定一所您的学校', 'bind at least one of your schools'),
  'account.childStaysWithAgent': m('子账号不能转移到其他代理商', 'a child account stays with its agent'),
  'account.chooseAgent': m('请选择子账号所属的代理商', 'choose the agent the child account belongs to'),
  'account.onlyManagers': m('仅公司管理员和代理商可以管理{what}', 'only company administrators and agents manage {what}'),
  'account.mustBeType': m('必须是{type}账号', 'must be an account of type {type}'),
  'school.onlyOwners': m('仅公司员工、销售和代理商可以管理学校', 'only company staff, sales people and agents manage schools'),
  'login.secondFactorRequired': m('请输入身份验证器中的 6 位动态码或一个恢复码', 'enter the 6-digit code from your authenticator app, or a recovery code'),
  'login.wrongSecondFactor': m('动态码或恢复码错误', 'wrong authentication code'),
  'login.challengeExpired': m('登录已超时，请重新输入密码', 'the sign-in has expired; enter your password again'),
  'twoFactor.notAvailable': m('仅公司管理员账号可以启用双重验证', 'only company administrator accounts can turn on two-factor sign-in'),
  'twoFactor.alreadyEnabled': m('双重验证已启用', 'two-factor sign-in is already on'),
  'twoFactor.notEnabled': m('双重验证未启用', 'two-factor sign-in is not on'),
  'twoFactor.wrongCode': m('动态码错误', 'wrong authentication code'),
  'twoFactor.noEnrolment': m('请先生成二维码', 'start the set-up first'),
  'twoFactor.ownFirst': m('请先为自己的账号启用双重验证', 'turn on two-factor sign-in for your own account first'),
  'login.twoFactorSetupRequired': m('公司账号须启用双重验证：请用身份验证器扫描二维码并输入动态码', 'company accounts must use two-factor sign-in: scan the QR code with an authenticator app and enter its code'),
  'twoFactor.cannotResetOwn': m('不能重置自己的双重验证，请在个人信息页关闭', 'you cannot reset your own two-factor sign-in; turn it off on your profile page'),

  'device.serialPrefix': m('序列号必须以型号前缀 {expected} 开头', "must start with the model's prefix {expected}"),
  'device.deliveryNotInstalled': m('该发货单还没有安装时间', 'the delivery has no installation time yet'),
  'intake.unauthenticated': m('终端未登记、已停用、没有密钥或签名错误', 'unknown or disabled terminal, no secret issued, or a wrong signature'),
  'intake.missingHeaders': m('缺少签名请求头 {headers}', 'missing signed headers: {headers}'),
  'intake.clockSkew': m('请求时间与服务器时间相差超过 {minutes} 分钟', 'the timestamp is more than {minutes} minutes from the server time'),
  'intake.nonceReused': m('该随机数已使用过', 'this nonce was used before'),
  'intake.badBody': m('请求体不是有效的 JSON 或 multipart', 'the body is neither valid JSON nor multipart'),
  'intake.snapshotMissing': m('缺少抓拍图片 {part}', 'the snapshot part {part} is missing'),
  'intake.snapshotNotImage': m('抓拍 {part} 不是 JPEG、PNG、GIF 或 WebP 图片', 'the snapshot {part} is not a JPEG, PNG, GIF or WebP image'),
  'intake.snapshotTooLarge': m('抓拍 {part} 超过 {size}', 'the snapshot {part} is larger than {size}'),
  'intake.serialTwice': m('同一批次中事件序号 {serial} 重复', 'event serial {serial} appears twice in the batch'),
  'people.classOfOtherSchool': m('该班级属于其他学校', 'the class belongs to another school'),
  'people.studentsOfParentSchool': m('关联的学生必须都在家长所在学校', "every linked student must be at the parent's school"),
  'sales.leaderInOtherTeam': m('该负责人已是其他团队的成员', 'the leader is a member of another team'),
  'sales.areaHeldExclusively': m('该区域已由其他代理商独家代理', 'another agent holds this area exclusively'),
  'sales.areaShared': m('该区域已有其他代理商代理部分地区', 'other agents already hold part of this area'),

  'finance.splitNot100': m('公司、代理商、学校比例之和必须为 100（现为 {sum}）', 'company, agent and school shares must add up to 100 (now {sum})'),
  'finance.splitDateRepeated': m('同一生效日期只能有一条分账规则', 'one split rule per effective date'),
  'finance.companyAccountAlone': m('公司账户不属于代理商或学校', 'the company account belongs to no agent or school'),
  'finance.accountHasEntries': m('账户已有流水，不能删除，可停用', 'an account with entries cannot be deleted; disable it instead'),
  'finance.adjustmentZero': m('调整金额不能为 0', 'the adjustment cannot be 0'),
  'parents.extendZero': m('天数不能为 0', 'the days cannot be 0'),
  'finance.refundExceedsPayment': m('退款总额不能超过支付金额（可退 {refundable} 分）', 'refunds cannot exceed the payment ({refundable} fen refundable)'),
  'finance.paymentNotFound': m('支付记录不存在', 'payment not found'),
  'finance.notificationWithoutOrder': m('支付通知缺少订单信息（学校、金额或交易号）', 'the payment notification names no order (school, amount or trade number)'),
  'lines.repeated': m('{field}与另一行重复', '{field} repeats another line'),
  'lines.sumNotEqual': m('{fields}之和必须为 {equals}（现为 {sum}）', '{fields} must add up to {equals} (now {sum})'),
  'lines.noPrice': m('{field}尚未定价', '{field} has no price yet'),
  'startupPage.imageRequired': m('请上传启动页图片', 'upload the startup image'),
  'startupPage.twoInUse': m('同一应用只能有一个启动页在使用', 'only one startup page per app can be in use'),
  'music.unreadable': m('无法读取音频时长，请上传完整的音频文件', 'the audio length cannot be read: upload a complete audio file'),
  'music.tooLong': m('音频不能超过 {minutes} 分钟', 'the audio may be at most {minutes} minutes long'),
  'music.notUploaded': m('请上传音频文件', 'upload the audio file'),
  'courseware.notUploaded': m('请上传{noun}文件', 'upload the {noun} file'),
  'courseware.unreadable': m('无法读取视频时长，请上传完整的 MP4、MOV 或 WebM 视频', 'the video length cannot be read: upload a complete MP4, MOV or WebM video'),
  'courseware.tooLong': m('视频不能超过 {hours} 小时', 'the video may be at most {hours} hours long'),
  'courseware.posterNotUploaded': m('封面须为上传的图片', 'the poster must be an uploaded image'),
  'courseware.notForKind': m('该类型的课件不带此文件', 'courseware of this kind has no such file'),
  'mall.outOfStock': m('{title} 库存不足', '{title}: not enough in stock'),
  'mall.priceChanged': m('{title} 价格已变更，请刷新后重新下单', '{title}: the price has changed; refresh and order again'),
  'mall.notOnSale': m('{title} 未向本校发布或已下架', '{title} is not on sale to this school'),
  'mall.linesFixed': m('已下单的商品不能修改，请取消后重新下单', 'the lines of a placed order cannot change: cancel it and order again'),
  'mall.pointsNotEnough': m('葱米不足（余额 {balance}）', 'not enough points (balance {balance})'),
  'mall.pointsBeyondOrder': m('葱米抵扣不能超过订单金额', 'points cannot pay more than the order'),
  'mall.couponNotUsable': m('优惠券不可用：已使用、已停用或不在有效期内', 'the coupon cannot be used: used, disabled or outside its dates'),
  'mall.couponThreshold': m('订单未满 {threshold} 元，不能使用该优惠券', 'the coupon needs an order of at least {threshold} yuan'),
  'mall.couponOutOfScope': m('订单中没有该优惠券适用的商品', 'no line of the order is within the coupon’s scope'),
  'album.noSuchSlot': m('该页没有这个位置', 'the page has no such slot'),
  'album.photoNotOfChild': m('只能换成本幼儿在该任务中的照片', 'only another photo of the child in this collection can go there'),
  'album.noSuchVersion': m('该相册没有这个版本', 'the book has no such version'),
  'album.versionNotReady': m('该版本的印刷 PDF 尚未生成，请稍后再下单', 'the version’s print PDF is not ready yet; order it in a moment'),
  'album.priceDuplicate': m('该规格在此范围已有价格', 'this spec already has a price for that school, province or default'),
  'album.priceSchoolOrProvince': m('学校和省份只能填一个', 'give a school or a province, not both'),
  'album.specDisabled': m('规格已停用', 'the spec is disabled'),
  'album.studentNotInClass': m('该幼儿不在任务的班级', 'the child is not in the task’s class'),
  'album.photoUnreadable': m('无法读取照片尺寸（仅支持 JPEG、PNG、GIF、WebP）', 'the photo’s size cannot be read (JPEG, PNG, GIF or WebP only)'),
  'album.noPrice': m('该相册规格尚未定价', 'the album’s spec has no price'),
  'album.bookNotReady': m('相册尚未生成完成', 'the book is not rendered yet'),
  'album.noChildren': m('班级没有在读幼儿', 'the class has no enrolled children'),
  'mall.couponSoldOut': m('优惠券已领完', 'the coupon has run out'),
  'mall.couponLimit': m('每人最多领取 {limit} 张', 'at most {limit} per parent'),
  'mall.couponNotForYou': m('该优惠券不面向您发放', 'the coupon is not offered to you'),
  'mall.totalBelowIssued': m('发行总量不能少于已发放的 {limit} 张', 'the total cannot be below the {limit} already issued'),
  'mall.couponDisabled': m('优惠券已停用', 'the coupon is disabled'),
  'mall.notReceived': m('收货后才能评价', 'comment after receiving the order'),
  'mall.notInOrder': m('该商品不在订单中', 'the commodity is not in the order'),
  'mall.alreadyCommented': m('已评价过该商品', 'this commodity of the order is commented already'),
  'mall.notPayable': m('订单状态为“{state}”，不能付款', 'the order is {state}: it cannot be paid'),
  'mall.paymentFailed': m('支付未成功：{message}', 'the payment did not succeed: {message}'),
  'mall.nothingToPay': m('订单无需支付', 'nothing is left to pay'),
  'mall.refundExceedsLine': m('退款不能超过该商品实付剩余的 {refundable} 元', 'the refund cannot exceed the {refundable} yuan left of the line'),
  'mall.lineNotFound': m('订单没有第 {lineNo} 行', 'the order has no line {lineNo}'),
  'mall.lineNothingLeft': m('该商品行已无可退金额', 'nothing is left to refund on this line'),
  'poster.mediaRequired': m('请上传图片或视频', 'upload an image or a video'),
  'questionnaire.optionsCount': m('选择题需 {min}–{max} 个选项，每行一个', 'a choice question needs {min}–{max} options, one per line'),
  'questionnaire.optionTooLong': m('每个选项最多 {max} 个字', 'each option may be at most {max} characters'),
  'questionnaire.optionTwice': m('选项重复：{item}', 'listed twice: {item}'),
  'questionnaire.textHasOptions': m('文本题不设选项', 'a text question has no options'),
  'questionnaire.questionsFixed': m('问卷已有答卷，题目不能再修改', 'the questionnaire has answers: its questions can no longer change'),
  'questionnaire.closed': m('问卷不在发布时间内或已停用', 'the questionnaire is not open now'),
  'questionnaire.alreadyAnswered': m('已提交过答卷', 'this respondent has already answered'),
  'questionnaire.schoolRequired': m('请选择学校', 'choose a school'),
  'questionnaire.schoolNotInAudience': m('该学校不在问卷的投放范围内', 'this school is not in the questionnaire audience'),
  'questionnaire.answerNoColumn': m('答卷编号', 'Answer no.'),
  'questionnaire.answeredAtColumn': m('提交时间', 'Answered at'),
  'questionnaire.schoolColumn': m('学校', 'School'),
  'questionnaire.channelColumn': m('渠道', 'Channel'),
  'questionnaire.unknownQuestion': m('没有第 {questionNo} 题', 'there is no question {questionNo}'),
  'questionnaire.answerRequired': m('此题必答', 'this question must be answered'),
  'questionnaire.oneOption': m('单选题只能选一个选项', 'choose exactly one option'),
  'questionnaire.unknownOption': m('选项不存在', 'no such option'),
  'questionnaire.choiceNeedsOptions': m('请选择选项', 'choose an option'),
  'questionnaire.textOnly': m('文本题请填写文字', 'a text question takes a text'),
  'questionnaire.answeredTwice': m('同一题只能回答一次', 'a question is answered once'),
  'questionnaire.agentAudience': m('只能向自己范围内的指定学校发布', 'choose schools of your own scope'),

  // The parent app's channel (docs/parent-app.md)
  'validation.passwordOrSmsCode': m('请填写密码或短信验证码（二选一）', 'send either the password or the SMS code'),
  'app.wrongSmsCode': m('验证码错误或已过期', 'the SMS code is wrong or has expired'),
  'app.idempotencyKeyReused': m('该 Idempotency-Key 已用于另一个请求', 'this Idempotency-Key was used for another request'),
  'app.idempotencyKeyInFlight': m('相同 Idempotency-Key 的请求仍在处理中，请稍后重试', 'a request with this Idempotency-Key is still being processed; try again shortly'),
  'app.useTooOften': m('上报过于频繁，请稍后再试', 'app use is reported too often from this session; try again in a minute'),
  'app.useTooOld': m('事件时间须在最近{days}天内，且不晚于现在', 'an event must be from the last {days} days and not in the future'),
  'app.serviceNotForSale': m('该学校暂不向家长销售此服务', 'this school does not sell the service to parents'),
  'app.paymentFailed': m('支付未成功：{message}', 'the payment did not go through: {message}'),
  'app.paymentUnknown': m('支付结果未知，请稍后在"我的订单"中查看', 'the payment outcome is not known yet; check my payments later'),
  'app.reservedRespondentKey': m('该答卷标识为 App 保留', 'this respondent key is reserved for the app'),
  'open.refused': m('签名校验未通过', 'the signature was refused'),
  'developer.callbackInternal': m('回调地址不能指向内网或本机地址', 'the callback address must not point at an internal or local address'),
  'developer.callbackNotDead': m('只能重试已放弃的投递', 'only a dead delivery can be retried'),
  'nvr.channelTwice': m('通道号 {value} 重复', 'channel {value} is listed twice'),
  'nvr.channelBeyondCount': m('通道号不能大于通道数 {limit}', 'the recorder has {limit} channels'),
  'order.noSerials': m('请填写发货设备的序列号', 'list the serial numbers of the devices shipped'),
  'order.serialsTwice': m('序列号重复：{serials}', 'listed twice: {serials}'),
  'order.serialsUnknown': m('序列号不存在：{serials}', 'not found: {serials}'),
  'order.serialsNotInStock': m('设备不在库：{serials}', 'not in stock: {serials}'),
  'order.serialsMismatch': m('发货设备必须与订单明细一致（型号：订购数 / 实发数 — {details}）', 'the devices must match the order lines (model: ordered / picked — {details})'),
  'upgrade.packageNotUploaded': m('请上传升级包（ZIP、APK 或 BIN）', 'upload the package (ZIP, APK or BIN) here'),
  'upgrade.modelNotOfType': m('该型号不是所选终端类型', 'this model is not of the chosen terminal type'),
  'upgrade.badVersions': m('版本号格式不正确：{versions}', 'not a version: {versions}'),
  'upgrade.versionDisabled': m('升级版本已停用', 'the version is disabled'),
  'upgrade.noTargets': m('没有可升级的设备：目标中没有该版本终端类型的设备', 'no device to upgrade: none of the targets is of the version’s terminal type'),
  'upgrade.serialsNotTargetable': m('以下设备不存在、不在您的范围内或不是该版本的终端类型：{serials}', 'not found, outside your scope or not of the version’s terminal type: {serials}'),
  'upgrade.wrongStep': m('升级状态不能从“{from}”变为“{to}”', 'the upgrade cannot go from {from} to {to}'),

  'log.tooManyPages': m('按页码只能翻阅前 {cap} 条记录，请用“下一页”继续', 'only the first {cap} rows are paged by number: continue with the cursor'),
  'log.badCursor': m('翻页位置无效，请从第一页重新开始', 'invalid cursor: start again from the first page'),

  'fever.alreadyAcknowledged': m('该体温异常已由他人确认', 'this temperature alert was already acknowledged'),
  'fever.thresholdRange': m('体温阈值须在 {min}℃ 到 {max}℃ 之间', 'the fever threshold must be between {min} °C and {max} °C'),
  'report.rangeReversed': m('结束日期不能早于开始日期', 'must not be before the start date'),
  'report.rangeTooLong': m('按{grain}统计最多 {days} 天，请缩短范围或改用更粗的粒度', 'a {grain} grain covers at most {days} days: shorten the range or pick a coarser grain'),
  'report.tooManyGroups': m('分组超过 {max} 个，请缩小筛选范围或改用更粗的粒度', 'more than {max} groups: narrow the filters or pick a coarser grain'),

  'tree.cycle': m('不能移动到自身或其下级节点之下', 'cannot move a node under itself or one of its descendants'),
  'tree.hasChildren': m('“{title}”下还有子节点，请先删除或移走它们', '{title} has children: delete or move them first'),

  // Excel import
  'import.notXlsx': m('请上传 .xlsx 格式的 Excel 文件', 'upload an Excel workbook (.xlsx)'),
  'import.noFile': m('请选择要导入的文件', 'choose the file to import'),
  'import.fileTooLarge': m('文件不能超过 {size}', 'the file must not exceed {size}'),
  'import.zipTooLarge': m('文件解压后过大（超过 {size}），已拒绝', 'the workbook unpacks to more than {size}: refused'),
  'import.zipRatio': m('文件压缩比异常（超过 {ratio} 倍），已拒绝', 'the workbook is compressed more than {ratio} times: refused'),
  'import.zipEntries': m('文件包含的条目过多（超过 {max} 个），已拒绝', 'the workbook holds more than {max} parts: refused'),
  'import.noSheet': m('文件中没有工作表', 'the workbook has no sheet'),
  'import.noHeader': m('第一行应为列名，请使用导入模板', 'the first row must hold the column names: use the import template'),
  'import.unknownColumn': m('无法识别的列“{name}”，请使用导入模板', 'unknown column “{name}”: use the import template'),
  'import.duplicateColumn': m('列“{name}”重复', 'the column “{name}” appears twice'),
  'import.missingColumn': m('缺少必填列“{name}”', 'the required column “{name}” is missing'),
  'import.noRows': m('文件中没有数据行', 'the file holds no rows'),
  'import.tooManyRows': m('一次最多导入 {max} 行', 'at most {max} rows can be imported at once'),
  'import.hasErrors': m('有 {count} 行数据有误，未导入任何数据', '{count} row(s) have errors: nothing was imported'),
  'import.nothingValid': m('没有可导入的有效行', 'no valid row to import'),
  'import.ambiguous': m('“{name}”对应多条{field}，请改用唯一的名称或编码', '“{name}” matches several rows of {field}: use a unique name or code'),
  'import.duplicateInFile': m('与第 {row} 行重复', 'repeats row {row}'),
  'import.notOneOf': m('应为以下之一：{values}', 'must be one of {values}'),
  'import.notDate': m('应为日期，如 2024-09-01', 'must be a date such as 2024-09-01'),
  'export.listSeparator': m('、', ', '),
  'import.templateName': m('{family}导入模板', '{family} import template'),
  'import.yes': m('是', 'Yes'),
  'import.no': m('否', 'No'),
  'import.notYesNo': m('应为“{yes}”或“{no}”', 'must be “{yes}” or “{no}”'),

  // Grants
  'grant.onlyManagers': m('仅公司管理员和代理商可以管理权限', 'only company administrators and agents manage grants'),
  'grant.accountNotFound': m('账号 {id} 不存在', 'account {id} not found'),
  'grant.unknownFrame': m('未知页面', 'unknown frame'),
  'grant.frameTwice': m('页面重复', 'frame listed twice'),
  'grant.unknownButtons': m('{frame} 没有按钮 {buttons}', '{frame} has no button {buttons}'),
  'grant.onlyHeld': m('只能授予您自己拥有的页面和按钮', 'you can only grant frames and buttons you hold yourself'),
  'grant.notOwn': m('不能修改自己的权限', 'you cannot change your own grant'),
} as const satisfies Record<string, Label>;

export type ServerMessageKey = keyof typeof SERVER_MESSAGES;

/** A message by key with its parameters, as errors and field errors carry it. */
export interface ServerMessage {
  key: ServerMessageKey;
  params?: MessageParamsOf;
}

export type MessageLocale = 'zh' | 'en';

function paramText(value: MessageParam, locale: MessageLocale): string {
  if (Array.isArray(value)) return value.join(locale === 'zh' ? '、' : ', ');
  if (typeof value === 'object' && value !== null) return (value as Label)[locale];
  return String(value);
}

/** Whether a text is a key of the catalogue. */
export function isServerMessageKey(text: string): text is ServerMessageKey {
  return Object.hasOwn(SERVER_MESSAGES, text);
}

/** The text of a message in one language, its `{name}` parameters filled. */
export function formatServerMessage(key: ServerMessageKey, params: MessageParamsOf | undefined, locale: MessageLocale): string {
  const template = SERVER_MESSAGES[key][locale];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? paramText(params[name]!, locale) : whole));
}

/**
 * A message as the text of a zod issue (`z.string().regex(re, messageText('validation.mobile'))`): zod
 * carries only strings, so key and parameters travel encoded and the server's error layer decodes them.
 */
export function messageText(key: ServerMessageKey, params?: MessageParamsOf): string {
  return params ? `${key}${PARAMS_SEPARATOR}${JSON.stringify(params)}` : key;
}

const PARAMS_SEPARATOR = '\u0001';

/** Decodes `messageText`; undefined for a text that is not an encoded message. */
export function parseMessageText(text: string): ServerMessage | undefined {
  const [key, json] = text.split(PARAMS_SEPARATOR, 2);
  if (!key || !isServerMessageKey(key)) return undefined;
  if (json === undefined) return { key };
  try {
    return { key, params: JSON.parse(json) as MessageParamsOf };
  } catch {
    return { key };
  }
}
