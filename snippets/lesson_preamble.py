# 每讲页面开头的隐藏代码块：固定打印格式，并导入把正文数字绑定到现算值的工具。
import lessons  # noqa: F401
from coursekit.drift import check, illustrative, interleave  # noqa: F401
